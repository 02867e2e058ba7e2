import { sql, type Kysely } from 'kysely';
import type { Database } from '../src/db/tables.js';

/** One user's (and optionally one limited token's) money as the database holds it. */
export interface Ledger {
  quota: number;
  used: number;
  requests: number;
  /** Open reservations of the user (calls in flight, or left by a dead node until swept). */
  reserved: number;
  openReservations: number;
  /** Sum and count of the user's consume logs. */
  logQuota: number;
  logCount: number;
  /** Logs that say a reservation was given back (system logs written by the sweeper). */
  givenBackLogs: number;
  tokenRemain?: number;
  tokenUsed?: number;
  /** Sum of the token's consume logs (logs name the token; test tokens have unique names). */
  tokenLogQuota?: number;
}

const count = (value: unknown) => Number(value ?? 0);

/** Reads a user's ledger straight from the database (and the log database when it is another one). */
export async function readLedger(
  db: Kysely<Database>,
  userId: number,
  token?: { id: number; name: string },
  logDb: Kysely<Database> = db,
): Promise<Ledger> {
  const user = await db
    .selectFrom('users')
    .select(['quota', 'used_quota', 'request_count'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const reservations = await db
    .selectFrom('reservations')
    .select([sql<number>`coalesce(sum(amount), 0)`.as('amount'), sql<number>`count(*)`.as('count')])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  const logs = await logDb
    .selectFrom('logs')
    .select([sql<number>`coalesce(sum(quota), 0)`.as('quota'), sql<number>`count(*)`.as('count')])
    .where('user_id', '=', userId)
    .where('type', '=', 2)
    .executeTakeFirstOrThrow();
  const givenBack = await logDb
    .selectFrom('logs')
    .select(sql<number>`count(*)`.as('count'))
    .where('user_id', '=', userId)
    .where('type', '=', 4)
    .where('content', 'like', '退还预扣额度%')
    .executeTakeFirstOrThrow();
  const ledger: Ledger = {
    quota: count(user.quota),
    used: count(user.used_quota),
    requests: count(user.request_count),
    reserved: count(reservations.amount),
    openReservations: count(reservations.count),
    logQuota: count(logs.quota),
    logCount: count(logs.count),
    givenBackLogs: count(givenBack.count),
  };
  if (token) {
    const row = await db
      .selectFrom('tokens')
      .select(['remain_quota', 'used_quota'])
      .where('id', '=', token.id)
      .executeTakeFirstOrThrow();
    const tokenLogs = await logDb
      .selectFrom('logs')
      .select(sql<number>`coalesce(sum(quota), 0)`.as('quota'))
      .where('user_id', '=', userId)
      .where('type', '=', 2)
      .where('token_name', '=', token.name)
      .executeTakeFirstOrThrow();
    ledger.tokenRemain = count(row.remain_quota);
    ledger.tokenUsed = count(row.used_quota);
    ledger.tokenLogQuota = count(tokenLogs.quota);
  }
  return ledger;
}

/**
 * The ledger rule (decision 0014), once nothing is in flight: what the user had is what is left plus what
 * was charged, the charges are exactly the consume logs, one request per log, no reservation left open;
 * for a limited token the same with its own limit.
 */
export function ledgerProblems(ledger: Ledger, initialQuota: number, initialTokenRemain?: number): string[] {
  const problems: string[] = [];
  if (ledger.openReservations !== 0) problems.push(`${ledger.openReservations} reservations still open`);
  if (ledger.quota + ledger.used !== initialQuota)
    problems.push(`quota ${ledger.quota} + used ${ledger.used} ≠ ${initialQuota}`);
  if (ledger.used !== ledger.logQuota) problems.push(`used ${ledger.used} ≠ consume logs ${ledger.logQuota}`);
  if (ledger.requests !== ledger.logCount) problems.push(`requests ${ledger.requests} ≠ logs ${ledger.logCount}`);
  if (initialTokenRemain !== undefined) {
    if (ledger.tokenRemain! + ledger.tokenUsed! !== initialTokenRemain)
      problems.push(`token remain ${ledger.tokenRemain} + used ${ledger.tokenUsed} ≠ ${initialTokenRemain}`);
    if (ledger.tokenUsed !== ledger.tokenLogQuota)
      problems.push(`token used ${ledger.tokenUsed} ≠ its logs ${ledger.tokenLogQuota}`);
  }
  return problems;
}
