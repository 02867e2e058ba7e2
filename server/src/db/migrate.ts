import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { DialectName } from './connect.js';
import * as createTables from './migrations/2026_11_21_0600_create_tables.js';
import * as createRelayOutcomes from './migrations/2026_11_21_0700_create_relay_outcomes.js';
import * as dropRedundantLogIndexes from './migrations/2026_11_21_0800_drop_redundant_log_indexes.js';
import * as createReservations from './migrations/2026_11_25_0900_create_reservations.js';
import * as createLogRollups from './migrations/2026_11_25_1100_create_log_rollups.js';
import * as logRollupsByModel from './migrations/2026_11_25_1300_log_rollups_by_model.js';
import * as addUserSessionGeneration from './migrations/2026_11_25_1000_add_user_session_generation.js';
import * as logListIndexes from './migrations/2026_11_25_1200_log_list_indexes.js';
import * as createResponses from './migrations/2026_11_25_1400_create_responses.js';
import * as logOffsetIndex from './migrations/2026_11_25_1500_log_offset_index.js';
import * as createModelPrices from './migrations/2026_11_25_2200_create_model_prices.js';
import * as addLogOther from './migrations/2026_11_26_0900_add_log_other.js';
import * as dropLogModelUsernameIndex from './migrations/2026_11_29_0300_drop_log_model_username_index.js';
import * as addLimits from './migrations/2026_11_29_0900_add_limits.js';
import * as createAuditLogs from './migrations/2026_11_29_1000_create_audit_logs.js';
import * as createUserSessions from './migrations/2026_11_30_0100_create_user_sessions.js';
import * as createLimitBudgetSpend from './migrations/2026_11_30_0200_create_limit_budget_spend.js';
import * as createUserPasskeys from './migrations/2026_11_30_0300_create_user_passkeys.js';
import * as relayOutcomesFineLatency from './migrations/2026_11_29_1130_relay_outcomes_fine_latency.js';

/** A migration that knows which engine it runs on (column types differ a little). */
export interface DialectMigration {
  up(db: Kysely<any>, dialect: DialectName): Promise<void>;
  down(db: Kysely<any>, dialect: DialectName): Promise<void>;
}

const migrations: Record<string, DialectMigration> = {
  '2026_11_21_0600_create_tables': createTables,
  '2026_11_21_0700_create_relay_outcomes': createRelayOutcomes,
  '2026_11_21_0800_drop_redundant_log_indexes': dropRedundantLogIndexes,
  '2026_11_25_0900_create_reservations': createReservations,
  '2026_11_25_1000_add_user_session_generation': addUserSessionGeneration,
  '2026_11_25_1100_create_log_rollups': createLogRollups,
  '2026_11_25_1200_log_list_indexes': logListIndexes,
  '2026_11_25_1300_log_rollups_by_model': logRollupsByModel,
  '2026_11_25_1400_create_responses': createResponses,
  '2026_11_25_1500_log_offset_index': logOffsetIndex,
  '2026_11_25_2200_create_model_prices': createModelPrices,
  '2026_11_26_0900_add_log_other': addLogOther,
  '2026_11_29_0300_drop_log_model_username_index': dropLogModelUsernameIndex,
  '2026_11_29_0900_add_limits': addLimits,
  '2026_11_29_1000_create_audit_logs': createAuditLogs,
  '2026_11_29_1130_relay_outcomes_fine_latency': relayOutcomesFineLatency,
  '2026_11_30_0100_create_user_sessions': createUserSessions,
  '2026_11_30_0200_create_limit_budget_spend': createLimitBudgetSpend,
  '2026_11_30_0300_create_user_passkeys': createUserPasskeys,
};

class StaticProvider implements MigrationProvider {
  constructor(private readonly dialect: DialectName) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return Object.fromEntries(
      Object.entries(migrations).map(([name, migration]) => [
        name,
        { up: (db) => migration.up(db, this.dialect), down: (db) => migration.down(db, this.dialect) },
      ]),
    );
  }
}

/** Brings the schema up to date; throws with the failing migration's error. */
export async function migrateToLatest(db: Kysely<any>, dialect: DialectName): Promise<void> {
  const migrator = new Migrator({ db, provider: new StaticProvider(dialect) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error) throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
}
