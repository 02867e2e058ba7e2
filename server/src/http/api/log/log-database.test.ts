import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines, mysqlAdminUrl, postgresAdminUrl } from '../../../../test/engines.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';
import { createTestUser } from '../../../../test/test-users.js';

/** A fresh PostgreSQL or MySQL database for the logs alone, and how to drop it. */
async function separateLogDatabase(kind: 'postgres' | 'mysql'): Promise<{ dsn: string; drop: () => Promise<void> }> {
  const name = `mg_logs_${randomBytes(6).toString('hex')}`;
  const adminUrl = kind === 'postgres' ? postgresAdminUrl : mysqlAdminUrl;
  const run = async (statement: string) => {
    if (kind === 'postgres') {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(statement);
      await client.end();
    } else {
      const connection = await mysql.createConnection({ uri: adminUrl });
      await connection.query(statement);
      await connection.end();
    }
  };
  await run(kind === 'postgres' ? `create database ${name}` : `create database ${name} character set utf8mb4`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    dsn: url.toString(),
    drop: () =>
      run(kind === 'postgres' ? `drop database if exists ${name} with (force)` : `drop database if exists ${name}`),
  };
}

const engines = await availableEngines();
const logEngines = engines
  .filter((engine) => engine.name !== 'sqlite')
  .map((engine) => ({ kind: engine.name as 'postgres' | 'mysql' }));

// LOG_SQL_DSN takes a PostgreSQL or MySQL address; without either server there is nothing to split to.
if (logEngines.length === 0) test.skip('LOG_SQL_DSN needs PostgreSQL or MySQL', () => {});

describe.each(logEngines)('LOG_SQL_DSN on $kind beside a SQLite main database', ({ kind }) => {
  let server: TestServer;
  let logDatabase: { dsn: string; drop: () => Promise<void> };
  beforeAll(async () => {
    logDatabase = await separateLogDatabase(kind);
    server = await startTestServer({ env: { LOG_SQL_DSN: logDatabase.dsn } });
  });
  afterAll(async () => {
    await server?.close();
    await logDatabase?.drop();
  });

  test('logs are written to and read from the log database only', async () => {
    expect(server.context.database.dialect).toBe('sqlite');
    expect(server.context.logDatabase.dialect).toBe(kind);
    const admin = await createTestUser(server, { role: 10 });
    const user = await createTestUser(server);
    const [key] = (await admin.client.post('/api/redemption/', { name: 'split', quota: 1234, count: 1 })).body.data;
    expect((await user.client.post('/api/user/topup', { key })).body.data).toBe(1234);

    const inLogDatabase = await server.context.logDatabase.db.selectFrom('logs').selectAll().execute();
    expect(inLogDatabase).toHaveLength(1);
    expect(inLogDatabase[0]).toMatchObject({ user_id: user.id, type: 1 });
    const inMainDatabase = await server.context.database.db.selectFrom('logs').selectAll().execute();
    expect(inMainDatabase).toHaveLength(0);

    const own = await user.client.get('/api/log/self/');
    expect(own.body.data).toHaveLength(1);
    expect(own.body.data[0].content).toContain('通过兑换码充值');
    const all = await admin.client.get(`/api/log/?username=${user.username}`);
    expect(all.body.data).toHaveLength(1);
    const cleared = await admin.client.delete(`/api/log/?target_timestamp=${Math.floor(Date.now() / 1000) + 10}`);
    expect(cleared.body.data).toBe(1);
    expect(await server.context.logDatabase.db.selectFrom('logs').selectAll().execute()).toHaveLength(0);
  });
});
