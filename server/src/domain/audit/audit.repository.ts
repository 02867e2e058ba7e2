import type { SelectQueryBuilder } from 'kysely';
import type { Db } from '../../db/tables.js';
import { auditDb, type AuditLogRow, type AuditTables } from './audit.table.js';

export interface AuditFilters {
  actor?: string;
  action?: string;
  targetType?: string;
  startTimestamp?: number;
  endTimestamp?: number;
}

function filtered<O>(query: SelectQueryBuilder<AuditTables, 'audit_logs', O>, filters: AuditFilters) {
  let built = query;
  // The actor by name or id; an action whole or by its family, so `user` finds user.update and user.delete.
  if (filters.actor) {
    const id = Number(filters.actor);
    built = built.where((eb) =>
      Number.isInteger(id)
        ? eb.or([eb('actor_name', '=', filters.actor!), eb('actor_id', '=', id)])
        : eb('actor_name', '=', filters.actor!),
    );
  }
  if (filters.action) {
    const action = filters.action;
    built = built.where((eb) => eb.or([eb('action', '=', action), eb('action', 'like', `${action}.%`)]));
  }
  if (filters.targetType) built = built.where('target_type', '=', filters.targetType);
  if (filters.startTimestamp) built = built.where('created_at', '>=', filters.startTimestamp);
  if (filters.endTimestamp) built = built.where('created_at', '<=', filters.endTimestamp);
  return built;
}

/** A page of entries, newest first, and how many match. */
export async function listAuditEntries(
  db: Db,
  filters: AuditFilters,
  page: number,
  pageSize: number,
): Promise<{ items: AuditLogRow[]; total: number }> {
  const audit = auditDb(db);
  const items = await filtered(audit.selectFrom('audit_logs').selectAll(), filters)
    .orderBy('seq', 'desc')
    .limit(pageSize)
    .offset(page * pageSize)
    .execute();
  const count = await filtered(
    audit.selectFrom('audit_logs').select((eb) => eb.fn.countAll<number>().as('n')),
    filters,
  ).executeTakeFirstOrThrow();
  return { items, total: Number(count.n) };
}

/** Every matching entry, oldest first, in batches (the CSV export). */
export async function* auditEntriesInBatches(
  db: Db,
  filters: AuditFilters,
  batch = 500,
): AsyncGenerator<AuditLogRow[]> {
  let after = 0;
  for (;;) {
    const rows = await filtered(auditDb(db).selectFrom('audit_logs').selectAll(), filters)
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(batch)
      .execute();
    if (rows.length > 0) yield rows;
    if (rows.length < batch) return;
    after = Number(rows[rows.length - 1]!.seq);
  }
}
