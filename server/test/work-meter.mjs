// Loaded into a ModelGate node under test (node --import tsx --import <this file> src/main.ts): counts the work
// the node does, at the boundaries our code does not own (JSON, the database drivers, Redis, sockets), without
// touching the code under test. The counters are answered as JSON on 127.0.0.1:WORK_METER_PORT (GET /), by a
// listener whose own sockets and serialisation are not counted.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import net from 'node:net';
import { isMainThread } from 'node:worker_threads';

const counts = {
  jsonParses: 0,
  jsonStringifies: 0,
  sqlStatements: 0,
  sqlCommits: 0,
  /** Rows the database answered with (a read that grows with a table shows here). */
  sqlRowsRead: 0,
  redisCommands: 0,
  /** Bytes written on sockets this node accepted, by local port (its HTTP listener's port: the clients). */
  bytesToClients: {},
  /** Bytes written on sockets this node opened, by remote port (an upstream's port, the database's, Redis'). */
  bytesToServers: {},
};

const meterPort = Number(process.env.WORK_METER_PORT);
if (isMainThread && meterPort > 0) install();

function install() {
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  JSON.parse = function countedParse(...args) {
    counts.jsonParses += 1;
    return parse.apply(this, args);
  };
  JSON.stringify = function countedStringify(...args) {
    counts.jsonStringifies += 1;
    return stringify.apply(this, args);
  };

  const meterSockets = new WeakSet();
  const byteLength = (chunk, encoding) =>
    typeof chunk === 'string' ? Buffer.byteLength(chunk, encoding || 'utf8') : (chunk?.byteLength ?? 0);
  const writeGeneric = net.Socket.prototype._writeGeneric;
  net.Socket.prototype._writeGeneric = function countedWrite(writev, data, encoding, callback) {
    // A socket still connecting keeps the data and calls this again once connected: count it then.
    if (!this.connecting && !meterSockets.has(this)) {
      const bytes = writev
        ? data.reduce(
            (sum, entry) => sum + (Buffer.isBuffer(entry) ? entry.byteLength : byteLength(entry.chunk, entry.encoding)),
            0,
          )
        : byteLength(data, encoding);
      const [table, port] = this.server
        ? [counts.bytesToClients, this.localPort]
        : [counts.bytesToServers, this.remotePort];
      table[port] = (table[port] ?? 0) + bytes;
    }
    return writeGeneric.call(this, writev, data, encoding, callback);
  };

  const require = createRequire(import.meta.url);
  const countRows = (result) => {
    for (const part of Array.isArray(result) ? result : [result]) counts.sqlRowsRead += part?.rows?.length ?? 0;
  };
  const countStatement = (text) => {
    counts.sqlStatements += 1;
    if (/^\s*commit\b/i.test(text)) counts.sqlCommits += 1;
  };

  const pg = require('pg');
  const pgQuery = pg.Client.prototype.query;
  pg.Client.prototype.query = function countedQuery(config, ...rest) {
    countStatement(typeof config === 'string' ? config : (config?.text ?? ''));
    const result = pgQuery.call(this, config, ...rest);
    // Kysely awaits the promise form; the pool's own queries pass callbacks and are not counted as rows.
    if (result && typeof result.then === 'function') void result.then(countRows, () => undefined);
    return result;
  };

  const mysql = require('mysql2');
  for (const method of ['query', 'execute']) {
    const original = mysql.Connection.prototype[method];
    mysql.Connection.prototype[method] = function countedStatement(text, ...rest) {
      countStatement(typeof text === 'string' ? text : (text?.sql ?? ''));
      const callbackAt = rest.findLastIndex((argument) => typeof argument === 'function');
      if (callbackAt >= 0) {
        const callback = rest[callbackAt];
        rest[callbackAt] = function countedCallback(error, rows, ...more) {
          if (Array.isArray(rows)) counts.sqlRowsRead += rows.length;
          return callback.call(this, error, rows, ...more);
        };
      }
      return original.call(this, text, ...rest);
    };
  }

  // better-sqlite3 runs a statement through prepare() then run/get/all/iterate, or through exec().
  const Sqlite = require('better-sqlite3');
  const statementMethods = ['run', 'get', 'all', 'iterate'];
  let statementsWrapped = false;
  const prepare = Sqlite.prototype.prepare;
  Sqlite.prototype.prepare = function countedPrepare(...args) {
    const statement = prepare.apply(this, args);
    if (!statementsWrapped) {
      statementsWrapped = true;
      const prototype = Object.getPrototypeOf(statement);
      for (const method of statementMethods) {
        const original = prototype[method];
        prototype[method] = function countedRun(...runArgs) {
          countStatement(this.source);
          const result = original.apply(this, runArgs);
          if (method === 'all') counts.sqlRowsRead += result.length;
          else if (method === 'get' && result !== undefined) counts.sqlRowsRead += 1;
          return result;
        };
      }
    }
    return statement;
  };
  const exec = Sqlite.prototype.exec;
  Sqlite.prototype.exec = function countedExec(text) {
    countStatement(text);
    return exec.call(this, text);
  };

  const { Redis } = require('ioredis');
  const sendCommand = Redis.prototype.sendCommand;
  Redis.prototype.sendCommand = function countedCommand(...args) {
    counts.redisCommands += 1;
    return sendCommand.apply(this, args);
  };

  const meter = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(stringify(counts));
  });
  meter.on('connection', (socket) => meterSockets.add(socket));
  meter.listen(meterPort, '127.0.0.1');
  meter.unref();
}
