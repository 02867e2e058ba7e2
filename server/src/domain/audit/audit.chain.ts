import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/tables.js';
import { auditDb, type AuditLogRow } from './audit.table.js';

/** One admin write as the trail records it; before and after are already masked. */
export interface AuditEntry {
  actorId: number;
  actorName: string;
  actorRole: number;
  ip: string;
  action: string;
  targetType: string;
  targetId: string;
  before: unknown;
  after: unknown;
}

type HashedFields = Omit<AuditLogRow, 'id' | 'hash'>;

/** sha256 over the entry's fields in a fixed order, the previous hash included: the chain's link. */
export function entryHash(row: HashedFields): string {
  const canonical = JSON.stringify([
    row.seq,
    row.created_at,
    row.actor_id,
    row.actor_name,
    row.actor_role,
    row.ip,
    row.action,
    row.target_type,
    row.target_id,
    row.before_json,
    row.after_json,
    row.prev_hash,
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/**
 * Appends one entry. The transaction first raises the head's seq, which locks its one row (a row lock on
 * PostgreSQL and MySQL, the write lock on SQLite), so concurrent appends, from any node, queue there and each
 * links to the one committed before it.
 */
export async function appendAuditEntry(db: Db, entry: AuditEntry): Promise<void> {
  await auditDb(db)
    .transaction()
    .execute(async (trx) => {
      await trx
        .updateTable('audit_head')
        .set({ seq: sql`seq + 1` })
        .where('id', '=', 1)
        .execute();
      const head = await trx
        .selectFrom('audit_head')
        .select(['seq', 'hash'])
        .where('id', '=', 1)
        .executeTakeFirstOrThrow();
      const fields: HashedFields = {
        seq: Number(head.seq),
        created_at: Math.floor(Date.now() / 1000),
        actor_id: entry.actorId,
        actor_name: entry.actorName.slice(0, 64),
        actor_role: entry.actorRole,
        ip: entry.ip.slice(0, 64),
        action: entry.action,
        target_type: entry.targetType,
        target_id: entry.targetId.slice(0, 191),
        before_json: json(entry.before),
        after_json: json(entry.after),
        prev_hash: head.hash,
      };
      const hash = entryHash(fields);
      await trx
        .insertInto('audit_logs')
        .values({ ...fields, hash })
        .execute();
      await trx.updateTable('audit_head').set({ hash }).where('id', '=', 1).execute();
    });
}

export interface ChainCheck {
  ok: boolean;
  checked: number;
  /** The first entry whose hash, link or number is wrong; null when the fault is a missing tail or none. */
  first_bad_id: number | null;
}

const verifyBatch = 500;

/**
 * Walks the chain in seq order: each entry's hash recomputed, its link to the one before, seq without gaps;
 * then the head, so a deleted last entry shows too.
 */
export async function verifyAuditChain(db: Db): Promise<ChainCheck> {
  const audit = auditDb(db);
  let previous = { seq: 0, hash: '' };
  let checked = 0;
  for (;;) {
    const rows = await audit
      .selectFrom('audit_logs')
      .selectAll()
      .where('seq', '>', previous.seq)
      .orderBy('seq')
      .limit(verifyBatch)
      .execute();
    for (const row of rows) {
      const seq = Number(row.seq);
      const fields = { ...row, seq, created_at: Number(row.created_at) };
      if (seq !== previous.seq + 1 || row.prev_hash !== previous.hash || entryHash(fields) !== row.hash)
        return { ok: false, checked, first_bad_id: row.id };
      checked++;
      previous = { seq, hash: row.hash };
    }
    if (rows.length < verifyBatch) break;
  }
  const head = await audit.selectFrom('audit_head').select(['seq', 'hash']).where('id', '=', 1).executeTakeFirst();
  const headMatches = head !== undefined && Number(head.seq) === previous.seq && head.hash === previous.hash;
  return { ok: headMatches, checked, first_bad_id: null };
}
