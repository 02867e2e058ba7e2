import { sql } from 'kysely';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ApiClient } from '../../test/api-client.js';
import { availableEngines, postgresAdminUrl } from '../../test/engines.js';
import { MockOpenAIUpstream } from '../../test/mock-openai-upstream.js';
import { createChannel, createToken, createUser, priceUnknownModels } from '../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { relayRuntime } from '../relay/runtime.js';
import { waitFor } from '../../test/wait-for.js';

const serverEngines = (await availableEngines()).filter((engine) => engine.name !== 'sqlite');

/** A connection of the test's own to the server's database, which ends the server's sessions. */
interface Admin {
  /** Ends every other session on the database; answers how many it ended. */
  endSessions(): Promise<number>;
  /** How many other sessions are open on the database (of them, how many run `needle`). */
  sessions(needle?: string): Promise<number>;
  close(): Promise<void>;
}

async function adminFor(server: TestServer): Promise<Admin> {
  const dsn = server.context.config.SQL_DSN;
  if (server.context.database.dialect === 'postgres') {
    const client = new pg.Client({ connectionString: dsn });
    await client.connect();
    const others = `from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`;
    return {
      async endSessions() {
        const { rows } = await client.query(`select pg_terminate_backend(pid) as ended ${others}`);
        return rows.filter((row: { ended: boolean }) => row.ended).length;
      },
      async sessions(needle) {
        const filter = needle ? ` and query like '%' || $1 || '%' and state = 'active'` : '';
        const { rows } = await client.query(`select count(*)::int as count ${others}${filter}`, needle ? [needle] : []);
        return (rows[0] as { count: number }).count;
      },
      close: () => client.end(),
    };
  }
  const connection = await mysql.createConnection({ uri: dsn });
  const others = `from information_schema.processlist where db = database() and id <> connection_id()`;
  return {
    async endSessions() {
      const [rows] = await connection.query(`select id ${others}`);
      const ids = (rows as { id: number }[]).map((row) => row.id);
      for (const id of ids) await connection.query(`kill ${Number(id)}`).catch(() => undefined);
      return ids.length;
    },
    async sessions(needle) {
      const filter = needle ? ` and info like concat('%', ?, '%')` : '';
      const [rows] = await connection.query(`select count(*) as count ${others}${filter}`, needle ? [needle] : []);
      return Number((rows as { count: number }[])[0]!.count);
    },
    close: () => connection.end(),
  };
}

describe.runIf(serverEngines.length > 0).each(serverEngines)('a $name node whose sessions are ended', (engine) => {
  let server: TestServer;
  let upstream: MockOpenAIUpstream;
  let admin: Admin;
  let root: ApiClient;
  let relayKey: string;

  const chat = async () => {
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${relayKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'loss-model', messages: [{ role: 'user', content: 'hi' }] }),
    });
    await response.arrayBuffer();
    return response.status;
  };
  /** The next management and relay calls succeed, and the node says it is not degraded. */
  const servesAgain = async () => {
    expect((await root.get('/api/user/self')).body).toMatchObject({ success: true, data: { username: 'root' } });
    expect((await root.get('/api/channel/')).body).toMatchObject({ success: true });
    expect(await chat()).toBe(200);
    // The answer leaves once its charge is journaled; the charge's database write follows. Ended while that
    // write runs, it is retried on a fresh connection, whose session stays in the pool.
    await relayRuntime(server.context).settlements.settled();
    await waitFor('status clears', async () => (await server.client().get('/api/status')).body.data.degraded === false);
  };

  beforeAll(async () => {
    server = await startTestServer({ engine: { ...engine, redis: false } });
    upstream = await MockOpenAIUpstream.start();
    await priceUnknownModels(server);
    await createChannel(server, { base_url: upstream.url, models: 'loss-model' });
    const userId = await createUser(server, { username: `loss${engine.name}`, quota: 100_000_000 });
    ({ key: relayKey } = await createToken(server, userId));
    root = await server.rootClient();
    admin = await adminFor(server);
  });

  afterAll(async () => {
    await admin?.close();
    await server?.close();
    await upstream?.close();
  });

  test('idle sessions ended by the database: the process lives and the next calls succeed', async () => {
    await servesAgain();
    expect(await admin.sessions()).toBeGreaterThan(0);
    expect(await admin.endSessions()).toBeGreaterThan(0);
    await waitFor('the sessions are gone', async () => (await admin.sessions()) === 0);
    await servesAgain();
  });

  test('a query running when its session ends fails to its caller, and the next one works', async () => {
    const sleep = server.context.database.dialect === 'postgres' ? sql`select pg_sleep(20)` : sql`select sleep(20)`;
    const started = Date.now();
    const slow = sleep.execute(server.context.database.db);
    const outcome = slow.then(
      () => 'answered',
      (error: unknown) => error,
    );
    await waitFor('the slow query runs', async () => (await admin.sessions('sleep(')) === 1);
    expect(await admin.endSessions()).toBeGreaterThan(0);
    const error = await outcome;
    expect(error).toBeInstanceOf(Error);
    expect(Date.now() - started).toBeLessThan(10_000);
    // The idle sessions end a moment after the busy one; a query sent on one in that moment fails (never
    // retried: it may have been a write). Once the database has ended them and the pool has read the news
    // (the ended sessions' connections closed), the next calls succeed.
    await waitFor('the sessions are gone', async () => (await admin.sessions()) === 0);
    await waitFor('the pool has dropped them', async () => server.context.database.poolStats?.().open === 0);
    await servesAgain();
  });

  test('a session ended inside a transaction, between two queries, is run again on a fresh connection (issue 29)', async () => {
    const db = server.context.database.db;
    let runs = 0;
    const result = await db.transaction().execute(async (trx) => {
      runs += 1;
      await sql`select 1`.execute(trx);
      if (runs === 1) {
        expect(await admin.endSessions()).toBeGreaterThan(0);
        await waitFor('the sessions are gone', async () => (await admin.sessions()) === 0);
        // The client sat checked out, with no query, when its session ended.
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await sql`select 1`.execute(trx);
      return 'committed';
    });
    expect(result).toBe('committed');
    expect(runs).toBe(2);
    await servesAgain();
  });
});

const postgresEngines = serverEngines.filter((engine) => engine.name === 'postgres');

describe.runIf(postgresEngines.length > 0)('a postgres node whose database refuses connections for a while', () => {
  let server: TestServer;
  let admin: pg.Client;
  let databaseName: string;

  beforeAll(async () => {
    server = await startTestServer({ engine: { name: 'postgres', redis: false, label: 'postgres' } });
    databaseName = new URL(server.context.config.SQL_DSN).pathname.slice(1);
    admin = new pg.Client({ connectionString: postgresAdminUrl });
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.query(`alter database ${databaseName} allow_connections true`).catch(() => undefined);
    await admin?.end();
    await server?.close();
  });

  test('/api/status answers degraded while it is away and clears when it returns', async () => {
    const root = await server.rootClient();
    const status = async () => (await server.client().get('/api/status')).body.data as Record<string, unknown>;
    expect(await status()).toMatchObject({ degraded: false, degraded_reasons: [] });

    await admin.query(`alter database ${databaseName} allow_connections false`);
    try {
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`,
        [databaseName],
      );
      await waitFor('status says the database is lost', async () => {
        const data = await status();
        return data.degraded === true && (data.degraded_reasons as string[]).includes('database');
      });
      // A call that needs the database fails as an error answer; the process goes on.
      const during = await root.get('/api/channel/');
      expect(during.body.success).toBe(false);
      expect((await server.client().get('/api/status')).status).toBe(200);
    } finally {
      await admin.query(`alter database ${databaseName} allow_connections true`);
    }
    await waitFor('status clears once the database accepts connections', async () => {
      return (await status()).degraded === false;
    });
    expect((await root.get('/api/channel/')).body.success).toBe(true);
  });
});
