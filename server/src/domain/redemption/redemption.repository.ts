import type { Db, RedemptionRow } from '../../db/tables.js';
import { startsWith } from '../../lib/like-pattern.js';
import { itemsPerPage, maxSearchResults } from '../token/token.constants.js';
import { RedemptionStatus } from './redemption.constants.js';

/** One page of codes (10), newest first. */
export const listRedemptions = (db: Db, page: number): Promise<RedemptionRow[]> =>
  db
    .selectFrom('redemptions')
    .selectAll()
    .orderBy('id', 'desc')
    .limit(itemsPerPage)
    .offset(page * itemsPerPage)
    .execute();

/** Codes whose id equals the keyword (when it is a number) or whose name starts with it; at most 100. */
export function searchRedemptions(db: Db, keyword: string): Promise<RedemptionRow[]> {
  const id = /^\d{1,9}$/.test(keyword) ? Number(keyword) : null;
  return db
    .selectFrom('redemptions')
    .selectAll()
    .where((eb) =>
      id === null ? startsWith('name', keyword) : eb.or([eb('id', '=', id), startsWith('name', keyword)]),
    )
    .orderBy('id', 'desc')
    .limit(maxSearchResults)
    .execute();
}

export const findRedemptionById = (db: Db, id: number): Promise<RedemptionRow | undefined> =>
  db.selectFrom('redemptions').selectAll().where('id', '=', id).executeTakeFirst();

export const findRedemptionByKey = (db: Db, key: string): Promise<RedemptionRow | undefined> =>
  db.selectFrom('redemptions').selectAll().where('key', '=', key).executeTakeFirst();

export interface NewRedemption {
  user_id: number;
  key: string;
  name: string;
  quota: number;
  created_time: number;
}

/** Inserts the codes in one statement (callers wrap it in a transaction with whatever else must hold). */
export async function insertRedemptions(db: Db, codes: NewRedemption[]): Promise<void> {
  if (codes.length === 0) return;
  await db
    .insertInto('redemptions')
    .values(codes.map((code) => ({ ...code, status: RedemptionStatus.Enabled, redeemed_time: 0, used_user_id: 0 })))
    .execute();
}

/** Writes name and/or quota; false when there is no such code. */
export async function updateRedemption(
  db: Db,
  id: number,
  changes: { name?: string; quota?: number },
): Promise<boolean> {
  if (Object.keys(changes).length === 0) return (await findRedemptionById(db, id)) !== undefined;
  const result = await db.updateTable('redemptions').set(changes).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Sets the status of a code that is not used yet; false when none matched (missing, or already used). */
export async function setUnusedRedemptionStatus(db: Db, id: number, status: number): Promise<boolean> {
  const result = await db
    .updateTable('redemptions')
    .set({ status })
    .where('id', '=', id)
    .where('status', '!=', RedemptionStatus.Used)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteRedemption(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('redemptions').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Claims an unused code for a user: a conditional UPDATE, so of any number of concurrent claims exactly
 * one changes the row. Answers whether this call was the one.
 */
export async function claimRedemption(db: Db, key: string, userId: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('redemptions')
    .set({ status: RedemptionStatus.Used, redeemed_time: now, used_user_id: userId })
    .where('key', '=', key)
    .where('status', '=', RedemptionStatus.Enabled)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
