import { randomBytes } from 'node:crypto';
import type { ExpressionBuilder } from 'kysely';
import { LocalCache } from '../../cache/local-cache.js';
import type { AppContext } from '../../context.js';
import type { Database, UserRow } from '../../db/tables.js';
import { AppError } from '../../lib/errors.js';
import { nowSeconds } from '../../lib/time.js';
import { invalidateUser } from './user.cache.js';

/**
 * The `set` value that ends every session of a user: sessions carry the generation they began with and
 * `authenticate` refuses one that differs from the row's (decision 0002). Use it in the same UPDATE as the
 * change that calls for it (password, ban, role), then `invalidateUser` so every node reads the new value.
 */
export const nextSessionGeneration = (eb: ExpressionBuilder<Database, 'users'>) => eb('session_generation', '+', 1);

/** Ends every session of the user on every node (reset password). */
export async function revokeSessions(context: AppContext, user: Pick<UserRow, 'id' | 'access_token'>): Promise<void> {
  await context.database.db
    .updateTable('users')
    .set((eb) => ({ session_generation: nextSessionGeneration(eb) }))
    .where('id', '=', user.id)
    .execute();
  await invalidateUser(context, user);
}

/** A session idle this long has ended, whatever its cookie says. */
const idleLimitSeconds = 30 * 24 * 3600;
/** last_seen_at is written at most this often per session and node: not a write per request. */
const lastSeenEverySeconds = 60;
const sessionTopic = 'session';

/** What `authenticate` needs of a session row; `null` in the cache when there is no live one. */
interface LiveSession {
  userId: number;
  lastSeenAt: number;
}

const caches = new WeakMap<AppContext, LocalCache<LiveSession | null>>();

/**
 * The node's cache of live sessions: a hit costs no query, and a revocation reaches every node through the
 * invalidation bus (topic `session`, key the session id; `resync` empties it).
 */
function sessionCache(context: AppContext): LocalCache<LiveSession | null> {
  let cache = caches.get(context);
  if (cache) return cache;
  cache = new LocalCache(Math.max(context.config.SYNC_FREQUENCY, 1) * 1000);
  const created = cache;
  context.bus.subscribe(({ topic, key }) => {
    if (topic === sessionTopic) created.delete(key);
    if (topic === 'resync') created.clear();
  });
  caches.set(context, cache);
  return cache;
}

async function forgetSessions(context: AppContext, ids: readonly string[]): Promise<void> {
  for (const id of ids) await context.bus.publish(sessionTopic, id);
}

export interface SessionOrigin {
  ip: string;
  userAgent: string;
}

/** Records a new session of the user and answers its id (for the signed cookie). */
export async function createSession(
  context: AppContext,
  user: Pick<UserRow, 'id' | 'session_generation'>,
  origin: SessionOrigin,
): Promise<string> {
  const db = context.database.db;
  const now = nowSeconds();
  // Housekeeping at sign-in, for this user only: ended rows are of no use to anyone.
  await db
    .deleteFrom('user_sessions')
    .where('user_id', '=', user.id)
    .where((eb) =>
      eb.or([
        eb('revoked', '=', 1),
        eb('generation', '<', user.session_generation ?? 0),
        eb('last_seen_at', '<', now - idleLimitSeconds),
      ]),
    )
    .execute();
  const id = randomBytes(32).toString('base64url');
  await db
    .insertInto('user_sessions')
    .values({
      id,
      user_id: user.id,
      generation: user.session_generation ?? 0,
      created_at: now,
      last_seen_at: now,
      ip: origin.ip.slice(0, 64),
      user_agent: origin.userAgent.slice(0, 255),
      revoked: 0,
    })
    .execute();
  return id;
}

/**
 * True when the session exists, belongs to the user, is not revoked and not idle too long. Read through the
 * node's cache; last_seen_at is refreshed in the background at most once a minute.
 */
export async function isSessionLive(context: AppContext, sessionId: string, userId: number): Promise<boolean> {
  const cache = sessionCache(context);
  const session = await cache.getOrLoad(sessionId, async () => {
    const row = await context.database.db
      .selectFrom('user_sessions')
      .select(['user_id', 'last_seen_at'])
      .where('id', '=', sessionId)
      .where('revoked', '=', 0)
      .executeTakeFirst();
    return row ? { userId: Number(row.user_id), lastSeenAt: Number(row.last_seen_at) } : null;
  });
  if (!session || session.userId !== userId) return false;
  const now = nowSeconds();
  if (session.lastSeenAt < now - idleLimitSeconds) return false;
  if (now - session.lastSeenAt >= lastSeenEverySeconds) {
    session.lastSeenAt = now;
    void context.database.db
      .updateTable('user_sessions')
      .set({ last_seen_at: now })
      .where('id', '=', sessionId)
      .execute()
      .catch((error: unknown) => context.logger.warn({ err: error }, 'session last_seen_at not written'));
  }
  return true;
}

/** Binds the session to the user's new generation (own password change keeps the session it came from). */
export async function renewSession(context: AppContext, sessionId: string, generation: number): Promise<void> {
  await context.database.db.updateTable('user_sessions').set({ generation }).where('id', '=', sessionId).execute();
}

/** Sign-out: ends this session alone, on every node. A replayed cookie of an ended session changes nothing. */
export async function endSession(context: AppContext, sessionId: string): Promise<void> {
  await context.database.db.updateTable('user_sessions').set({ revoked: 1 }).where('id', '=', sessionId).execute();
  await forgetSessions(context, [sessionId]);
}

export interface PresentedSession {
  id: string;
  created_at: number;
  last_seen_at: number;
  ip: string;
  user_agent: string;
  current: boolean;
}

/** The user's live sessions, the most recently seen first; `current` marks the one asking. */
export async function listSessions(
  context: AppContext,
  user: Pick<UserRow, 'id' | 'session_generation'>,
  currentId: string | undefined,
): Promise<PresentedSession[]> {
  const rows = await context.database.db
    .selectFrom('user_sessions')
    .selectAll()
    .where('user_id', '=', user.id)
    .where('revoked', '=', 0)
    .where('generation', '=', user.session_generation ?? 0)
    .where('last_seen_at', '>=', nowSeconds() - idleLimitSeconds)
    .orderBy('last_seen_at', 'desc')
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    created_at: Number(row.created_at),
    last_seen_at: Number(row.last_seen_at),
    ip: row.ip,
    user_agent: row.user_agent,
    current: row.id === currentId,
  }));
}

const sessionNotFound = () =>
  new AppError('session_not_found', { zh: '会话不存在或已结束', en: 'No such session, or it has ended' });

/** Ends one of the user's sessions (another user's id is answered as not found). */
export async function revokeSession(context: AppContext, userId: number, sessionId: string): Promise<void> {
  const result = await context.database.db
    .updateTable('user_sessions')
    .set({ revoked: 1 })
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .where('revoked', '=', 0)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw sessionNotFound();
  await forgetSessions(context, [sessionId]);
}

/** Ends every live session of the user but `keepId` (all of them without one); answers how many ended. */
export async function revokeOtherSessions(
  context: AppContext,
  user: Pick<UserRow, 'id' | 'session_generation'>,
  keepId: string | undefined,
): Promise<number> {
  const db = context.database.db;
  let query = db
    .selectFrom('user_sessions')
    .select('id')
    .where('user_id', '=', user.id)
    .where('revoked', '=', 0)
    .where('generation', '=', user.session_generation ?? 0);
  if (keepId) query = query.where('id', '!=', keepId);
  const ids = (await query.execute()).map((row) => row.id);
  if (ids.length === 0) return 0;
  await db.updateTable('user_sessions').set({ revoked: 1 }).where('id', 'in', ids).execute();
  await forgetSessions(context, ids);
  return ids.length;
}
