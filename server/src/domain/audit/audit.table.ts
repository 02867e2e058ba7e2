import type { ColumnType, Generated, Kysely, Selectable } from 'kysely';
import type { Db } from '../../db/tables.js';

/** The audit trail's tables (issue 32, point 3), kept beside the feature rather than in the shared schema. */
// A type rather than an interface: Kysely's withTables wants an index signature, which only a type alias has.
export type AuditTables = {
  audit_logs: AuditLogTable;
  audit_head: AuditHeadTable;
};

export interface AuditLogTable {
  id: Generated<number>;
  seq: number;
  created_at: number;
  actor_id: number;
  actor_name: string;
  actor_role: number;
  ip: string;
  action: string;
  target_type: string;
  target_id: string;
  before_json: ColumnType<string | null, string | null, never>;
  after_json: ColumnType<string | null, string | null, never>;
  prev_hash: string;
  hash: string;
}

interface AuditHeadTable {
  id: number;
  seq: number;
  hash: string;
}

export type AuditLogRow = Selectable<AuditLogTable>;
export type AuditDb = Kysely<AuditTables>;

export const auditDb = (db: Db): AuditDb => db.withTables<AuditTables>() as unknown as AuditDb;
