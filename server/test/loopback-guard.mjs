// Loaded into a third-party client under test (NODE_OPTIONS=--import <this file>): every TCP connection and
// name lookup that would leave 127.0.0.1 is refused and written to LOOPBACK_GUARD_LOG, so a test can show
// that the client made no call outside the machine (and name each one it tried).
import { appendFileSync } from 'node:fs';
import dns from 'node:dns';
import net from 'node:net';

const logFile = process.env.LOOPBACK_GUARD_LOG;
const record = (line) => {
  if (logFile) appendFileSync(logFile, `${line}\n`);
};
const loopback = (host) =>
  host === undefined || host === null || host === '' || host === 'localhost' || host === '::1' || /^127\./.test(host);

/** The host and port of `socket.connect(...)`'s many signatures (a path means a local socket). */
function target(args) {
  const [first, second] = args;
  if (Array.isArray(first)) return target(first);
  if (typeof first === 'object' && first !== null)
    return first.path ? undefined : { host: first.host, port: first.port };
  if (typeof first === 'string' && !/^\d+$/.test(first)) return undefined;
  return { host: typeof second === 'string' ? second : undefined, port: first };
}

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
  const to = target(args);
  if (to && !loopback(to.host)) {
    record(`connect ${to.host}:${to.port}`);
    const refusal = Object.assign(new Error(`loopback guard: connection to ${to.host} refused`), {
      code: 'ECONNREFUSED',
    });
    process.nextTick(() => this.destroy(refusal));
    return this;
  }
  return connect.apply(this, args);
};

const notFound = (host) =>
  Object.assign(new Error(`loopback guard: lookup of ${host} refused`), { code: 'ENOTFOUND', hostname: host });

const lookup = dns.lookup;
dns.lookup = function guardedLookup(host, ...rest) {
  if (loopback(host)) return lookup.call(this, host, ...rest);
  record(`lookup ${host}`);
  const callback = rest.at(-1);
  process.nextTick(() => callback(notFound(host)));
  return undefined;
};
const lookupPromise = dns.promises.lookup;
dns.promises.lookup = async function guardedLookupPromise(host, ...rest) {
  if (loopback(host)) return lookupPromise.call(this, host, ...rest);
  record(`lookup ${host}`);
  throw notFound(host);
};
