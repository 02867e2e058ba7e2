import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../test/engines.js';
import { FaultUpstream } from '../../test/fault-upstream.js';
import { ledgerProblems, readLedger } from '../../test/ledger.js';
import { createChannel, createToken, createUser, settled } from '../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';

const serverEngines = (await availableEngines()).filter((engine) => engine.name !== 'sqlite');

/** Ends every session of the server's database but this one, as pg_terminate_backend or KILL do. */
async function endSessions(server: TestServer): Promise<number> {
  const dsn = server.context.config.SQL_DSN;
  if (server.context.database.dialect === 'postgres') {
    const client = new pg.Client({ connectionString: dsn });
    await client.connect();
    try {
      const { rows } = await client.query(
        'select pg_terminate_backend(pid) as ended from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      );
      return rows.filter((row: { ended: boolean }) => row.ended).length;
    } finally {
      await client.end();
    }
  }
  const connection = await mysql.createConnection({ uri: dsn });
  try {
    const [rows] = await connection.query(
      'select id from information_schema.processlist where db = database() and id <> connection_id()',
    );
    for (const { id } of rows as { id: number }[]) await connection.query(`kill ${Number(id)}`).catch(() => undefined);
    return (rows as unknown[]).length;
  } finally {
    await connection.end();
  }
}

/**
 * Issue 29, point 9: the database ending the gateway's sessions under load cost clients 29–136 calls per 1,500
 * answered as 500 (nothing charged). A statement or transaction whose session ended before its COMMIT is run
 * again on a fresh connection before any call fails.
 */
describe.runIf(serverEngines.length > 0).each(serverEngines)('sessions ended under load on $label', (engine) => {
  let server: TestServer;
  let upstream: FaultUpstream;

  beforeAll(async () => {
    upstream = await FaultUpstream.start();
    server = await startTestServer({ engine });
    await createChannel(server, { base_url: upstream.url, models: 'gpt-3.5-turbo' });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  test('no call is answered 500, and the ledger is exact', async () => {
    // A balance too small to trust: every call writes its reservation, then its charge.
    const quota = 2_000_000;
    const userId = await createUser(server, { username: `sessions-${engine.name}`, quota });
    const token = { ...(await createToken(server, userId, { name: 'sessions' })), name: 'sessions' };
    let stopped = false;
    let ended = 0;
    const terminator = (async () => {
      while (!stopped) {
        await new Promise((resolve) => setTimeout(resolve, 60));
        if (!stopped) ended += await endSessions(server);
      }
    })();
    const statuses = new Map<number, number>();
    let firstFailure = '';
    let next = 0;
    const calls = 600;
    await Promise.all(
      Array.from({ length: 12 }, async (_, worker) => {
        while (next < calls) {
          next += 1;
          const response = await fetch(`${server.url}/v1/chat/completions`, {
            method: 'POST',
            headers: { authorization: `Bearer sk-${token.key}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              model: 'gpt-3.5-turbo',
              stream: worker % 2 === 0,
              max_tokens: 50,
              messages: [{ role: 'user', content: 'fault:ok' }],
            }),
          });
          const text = await response.text();
          if (response.status !== 200 && !firstFailure) firstFailure = text;
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        }
      }),
    );
    stopped = true;
    await terminator;
    await settled(server);
    console.log(
      `${engine.label}: ${calls} calls, ${ended} sessions ended, statuses ${JSON.stringify(Object.fromEntries(statuses))}${firstFailure ? `, first failure: ${firstFailure}` : ''}`,
    );
    expect(ended).toBeGreaterThan(0);
    expect(Object.fromEntries(statuses)).toEqual({ 200: calls });
    const ledger = await readLedger(server.context.database.db, userId, token, server.context.logDatabase.db);
    expect(ledgerProblems(ledger, quota)).toEqual([]);
    expect(ledger.logCount).toBe(calls);
  }, 240_000);
});
