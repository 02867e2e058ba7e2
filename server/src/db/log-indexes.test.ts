import { describe, expect, test } from 'vitest';
import { availableEngines } from '../../test/engines.js';
import { startTestServer } from '../../test/test-server.js';
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
