import { describe, expect, test } from 'vitest';
import { availableEngines } from '../../test/engines.js';
import { startTestServer } from '../../test/test-server.js';
import { listLogs } from '../domain/log/log.repository.js';
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
      expect(await exists('index_username_model_name')).toBe(true);

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
