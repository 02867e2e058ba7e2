import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { databaseSeconds } from '../../db/database-clock.js';
import type { ReservationRow } from '../../db/tables.js';
import { LogType } from '../../domain/log/log.constants.js';
import { logRow, quotaText, insertLogRows } from '../../domain/log/log.writer.js';
import { relayRuntime } from '../runtime.js';
import { seatPrefix } from './in-flight.js';

/** A node silent for this many heartbeat intervals is taken for dead. */
const missedHeartbeats = 3;
/** Reservations given back per round; the next round takes the rest. */
const sweepBatch = 500;

/** Seconds after which a silent node is dead and an unsettled reservation is abandoned. */
export const abandonedAfterSeconds = (context: AppContext) => missedHeartbeats * context.config.NODE_HEARTBEAT_INTERVAL;

/**
 * Writes this node's heartbeat (first at start, before it serves, then on every interval). Every lease time
 * (heartbeats, reservations, the sweeper's cutoffs) is the database's clock, so nodes whose clocks disagree
 * still agree on who is alive.
 */
export async function beat(context: AppContext): Promise<void> {
  const { nodeId } = relayRuntime(context);
  const { db } = context.database;
  const now = databaseSeconds(db);
  const updated = await db
    .updateTable('relay_nodes')
    .set({ heartbeat_at: now })
    .where('id', '=', nodeId)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0)
    await db.insertInto('relay_nodes').values({ id: nodeId, started_at: now, heartbeat_at: now }).execute();
}

/** At a clean stop, once every call has settled: the node's row goes, so nothing waits for it to fall silent. */
export async function leave(context: AppContext): Promise<void> {
  await context.database.db.deleteFrom('relay_nodes').where('id', '=', relayRuntime(context).nodeId).execute();
}

/**
 * Gives back the reservations no live call will settle (decision 0014): those of nodes that stopped beating
 * (killed, crashed, cut off), and this node's own rows that no call of its own holds any more (a path that
 * never settled). Only rows older than the dead-node delay are taken, so a node's first reservations are
 * safe before its first heartbeat is seen. Each is given back in its own transaction with a log entry that
 * says why; a settlement that still arrives for one charges it again (quota-batcher.ts). Returns how many.
 */
export async function sweepReservations(context: AppContext, scope: 'dead-nodes' | 'own'): Promise<number> {
  const { db } = context.database;
  const { nodeId, inFlight } = relayRuntime(context);
  const cutoff = sql<number>`${databaseSeconds(db)} - ${abandonedAfterSeconds(context)}`;
  let query = db.selectFrom('reservations').selectAll().where('created_at', '<', cutoff);
  query =
    scope === 'own'
      ? query.where('node_id', '=', nodeId)
      : query.where('node_id', 'not in', db.selectFrom('relay_nodes').select('id').where('heartbeat_at', '>=', cutoff));
  const rows = await query.orderBy('id').limit(sweepBatch).execute();
  let given = 0;
  for (const row of rows) {
    if (scope === 'own' && inFlight.isOpen(row.id)) continue;
    if (await giveBack(context, row, scope)) given += 1;
  }
  if (given > 0) context.logger.warn({ given, scope }, 'gave back reservations that no call will settle');
  return given;
}

/**
 * At start, before the node serves: what earlier runs of this node held (the same host and address, see
 * in-flight.ts) is given back at once, without waiting for their heartbeats to run out, and their rows in
 * `relay_nodes` go. Should such a run still be alive after all (this start then fails on its address), its
 * calls are charged in full when they settle, as after any give-back. Returns how many.
 */
export async function giveBackEarlierRuns(context: AppContext): Promise<number> {
  const { db } = context.database;
  const { nodeId } = relayRuntime(context);
  const earlierRun = `${seatPrefix(nodeId)}%`;
  const rows = await db
    .selectFrom('reservations')
    .selectAll()
    .where('node_id', 'like', earlierRun)
    .where('node_id', '<>', nodeId)
    .orderBy('id')
    .execute();
  let given = 0;
  for (const row of rows) if (await giveBack(context, row, 'dead-nodes')) given += 1;
  await db.deleteFrom('relay_nodes').where('id', 'like', earlierRun).where('id', '<>', nodeId).execute();
  if (given > 0) context.logger.warn({ given }, "gave back what this node's previous run held");
  return given;
}

async function giveBack(context: AppContext, row: ReservationRow, scope: 'dead-nodes' | 'own'): Promise<boolean> {
  const amount = Number(row.amount);
  const limited = Number(row.limited) === 1;
  const found = await context.database.db.transaction().execute(async (transaction) => {
    const deleted = await transaction.deleteFrom('reservations').where('id', '=', row.id).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) return null; // settled meanwhile
    if (limited)
      await transaction
        .updateTable('tokens')
        .set({ remain_quota: sql`remain_quota + ${amount}`, used_quota: sql`used_quota - ${amount}` })
        .where('id', '=', row.token_id)
        .execute();
    await transaction
      .updateTable('users')
      .set({ quota: sql`quota + ${amount}` })
      .where('id', '=', row.user_id)
      .execute();
    const user = await transaction
      .selectFrom('users')
      .select('username')
      .where('id', '=', row.user_id)
      .executeTakeFirst();
    const token = await transaction
      .selectFrom('tokens')
      .select(['key', 'name'])
      .where('id', '=', row.token_id)
      .executeTakeFirst();
    const why = scope === 'own' ? '调用未结算' : `节点 ${row.node_id} 已停止`;
    const log = logRow(context, {
      type: LogType.System,
      user_id: row.user_id,
      username: user?.username ?? '',
      token_name: token?.name ?? '',
      request_id: row.request_id,
      content: `退还预扣额度 ${quotaText(context, amount)}：请求 ${row.request_id || row.id} ${why}，未完成计费`,
    });
    if (log && context.logDatabase === context.database)
      await insertLogRows(transaction, context.database.dialect, [log]);
    return { log, tokenKey: token?.key };
  });
  if (!found) return false;
  if (found.log && context.logDatabase !== context.database)
    await insertLogRows(context.logDatabase.db, context.logDatabase.dialect, [found.log]);
  await context.bus.publish('user', row.user_id);
  if (found.tokenKey) await context.bus.publish('token', found.tokenKey);
  return true;
}
