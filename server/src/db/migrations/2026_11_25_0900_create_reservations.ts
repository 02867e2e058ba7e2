import type { Kysely } from 'kysely';
import type { DialectName } from '../connect.js';
import { ensureIndex, ensureTable, type ColumnSpec } from '../schema-helpers.js';

// Quota held by relay calls in flight, one row per call (decision 0014): written in the reservation's own
// transaction and deleted in the settlement's, so a row left behind is a call whose node died before it
// settled, and the sweeper gives it back.
const reservations: ColumnSpec[] = [
  ['id', 'varchar(64)'],
  ['node_id', 'varchar(32)'],
  ['user_id', 'bigint'],
  ['token_id', 'bigint'],
  ['limited', 'int', 0],
  ['amount', 'bigint'],
  ['request_id', 'varchar(64)', ''],
  ['created_at', 'bigint'],
];

// Every running node's heartbeat: a reservation whose node stopped beating belongs to a dead process.
const relayNodes: ColumnSpec[] = [
  ['id', 'varchar(32)'],
  ['started_at', 'bigint'],
  ['heartbeat_at', 'bigint'],
];

// One row per settlement write on PostgreSQL and MySQL, written in its transaction: after a connection lost
// during COMMIT, its presence says the write went through (settlement-writer.ts). Kept a day.
const settlementWrites: ColumnSpec[] = [
  ['id', 'varchar(32)'],
  ['created_at', 'bigint'],
];

export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await ensureTable(db, dialect, 'reservations', reservations, ['id']);
  await ensureIndex(db, dialect, 'reservations', 'idx_reservations_node', ['node_id']);
  await ensureTable(db, dialect, 'relay_nodes', relayNodes, ['id']);
  await ensureTable(db, dialect, 'settlement_writes', settlementWrites, ['id']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('reservations').ifExists().execute();
  await db.schema.dropTable('relay_nodes').ifExists().execute();
  await db.schema.dropTable('settlement_writes').ifExists().execute();
}
