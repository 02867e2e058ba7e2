import { Kysely, SqliteDialect, type LogEvent } from 'kysely';
import { describe, expect, test } from 'vitest';
import { availableEngines } from '../../test/engines.js';
import { startTestServer } from '../../test/test-server.js';
import { consumptionTotals } from '../domain/log/log-rollup.js';
import { deleteLogsBefore, listLogs, searchLogs } from '../domain/log/log.repository.js';
import { up as dropRedundantLogIndexes } from './migrations/2026_11_21_0800_drop_redundant_log_indexes.js';
import { indexExists } from './schema-helpers.js';

describe.each(await availableEngines())('consume log indexes on $label', (engine) => {
  test("one-api's two redundant single-column indexes are dropped; the ones serving the same queries stay", async () => {
    const server = await startTestServer({ engine });
    try {
      const { db, dialect } = server.context.database;
      const exists = (name: string) => indexExists(db, dialect, 'logs', name);
      expect(await exists('idx_logs_user_id')).toBe(false);
      expect(await exists('idx_logs_model_name')).toBe(false);
      expect(await exists('idx_logs_user_type_id')).toBe(true);
      // PostgreSQL's writes the id out (migration 2026_11_25_1200).
      expect(await exists(dialect === 'postgres' ? 'idx_logs_username_id' : 'idx_logs_username')).toBe(true);
      expect(await exists('idx_logs_model_name_id')).toBe(true);
      expect(await exists('index_username_model_name')).toBe(false);

      // A database one-api created has them: the migration removes them.
      await db.schema.createIndex('idx_logs_user_id').on('logs').column('user_id').execute();
      await db.schema.createIndex('idx_logs_model_name').on('logs').column('model_name').execute();
      expect(await exists('idx_logs_user_id')).toBe(true);
      await dropRedundantLogIndexes(db, dialect);
      expect(await exists('idx_logs_user_id')).toBe(false);
      expect(await exists('idx_logs_model_name')).toBe(false);
    } finally {
      await server.close();
    }
  });
});

test("on SQLite a page number walks a narrow index of ids, not the logs' rows, and lands on the same rows", async () => {
  const server = await startTestServer({ engine: { name: 'sqlite', redis: false, label: 'sqlite' } });
  try {
    const sqlite = server.context.database.sqlite!;
    const insert = sqlite.prepare("insert into logs (user_id, created_at, type, content) values (1, ?, 2, 'call')");
    sqlite.transaction(() => {
      for (let index = 0; index < 300; index++) insert.run(1_700_000_000 + index);
    })();
    const plan = sqlite
      .prepare('explain query plan select id from logs order by id desc limit 10 offset 200')
      .all() as Array<{ detail: string }>;
    expect(plan.map((step) => step.detail).join(' ')).toContain('COVERING INDEX idx_logs_id');

    const all = sqlite.prepare('select id from logs order by id desc').all() as Array<{ id: number }>;
    const page = await listLogs(server.context.database.db, {}, 20);
    expect(page.map((row) => row.id)).toEqual(all.slice(200, 210).map((row) => row.id));
  } finally {
    await server.close();
  }
});

test('on SQLite every index on logs is the one a query of the log code walks, and there is no other', async () => {
  const server = await startTestServer({ engine: { name: 'sqlite', redis: false, label: 'sqlite' } });
  try {
    const sqlite = server.context.database.sqlite!;
    const insert =
      sqlite.prepare(`insert into logs (user_id, created_at, type, content, username, token_name, model_name,
      channel_id) values (?, ?, ?, 'call', ?, ?, ?, ?)`);
    sqlite.transaction(() => {
      for (let n = 0; n < 2000; n++)
        insert.run(
          1 + (n % 50),
          1_700_000_000 + n * 60,
          n % 20 === 0 ? 1 : 2,
          `u${n % 50}`,
          `t${n % 7}`,
          `m${n % 13}`,
          n % 9,
        );
    })();
    sqlite.exec('analyze');
    // The SQL each function of the log code runs, taken from Kysely's query log over the server's own connection.
    let statements: { sql: string; parameters: readonly unknown[] }[] = [];
    const log = (event: LogEvent) => void statements.push(event.query);
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: sqlite }), log });
    const indexesWalked = async (run: () => Promise<unknown>) => {
      statements = [];
      await run();
      const plans = statements.flatMap(({ sql, parameters }) =>
        sqlite.prepare(`explain query plan ${sql}`).all(...(parameters as unknown[])),
      ) as Array<{ detail: string }>;
      return plans.flatMap((step) => /USING (?:COVERING )?INDEX (\w+)/.exec(step.detail)?.[1] ?? []);
    };
    const day = { startTimestamp: 1_700_030_000, endTimestamp: 1_700_060_000 };
    const queries: Record<string, () => Promise<unknown>> = {
      idx_logs_id: () => listLogs(db, {}, 20), // one-api's page number, an offset
      idx_logs_type_id: () => listLogs(db, { type: 1 }, 0), // top-ups among consume logs
      idx_logs_username: () => listLogs(db, { username: 'u7' }, 0),
      idx_logs_token_name: () => listLogs(db, { tokenName: 't3' }, 0),
      idx_logs_model_name_id: () => listLogs(db, { modelName: 'm3' }, 0),
      idx_logs_channel_id: () => listLogs(db, { channel: 4 }, 0),
      idx_logs_user_id_id: () => searchLogs(db, 'call', 7), // and every user's own log page
      idx_logs_user_type_id: () => listLogs(db, { userId: 7, type: 1 }, { beforeId: 1500 }),
      idx_created_at_type: () => consumptionTotals(db, { ...day, userId: 7 }), // the totals' raw edges
    };
    for (const [index, query] of Object.entries(queries)) expect(await indexesWalked(query), index).toContain(index);
    expect(await indexesWalked(() => listLogs(db, { userId: 7 }, 0))).toEqual(['idx_logs_user_id_id']);
    expect(await indexesWalked(() => listLogs(db, day, 0))).toEqual(['idx_created_at_type']);
    expect(await indexesWalked(() => deleteLogsBefore(db, 1_700_000_600, { type: 2 }))).toContain(
      'idx_created_at_type',
    );

    const indexes = sqlite
      .prepare("select name from sqlite_master where type = 'index' and tbl_name = 'logs' and sql is not null")
      .all() as Array<{ name: string }>;
    expect(indexes.map((index) => index.name).sort()).toEqual(Object.keys(queries).sort());
  } finally {
    await server.close();
  }
});
