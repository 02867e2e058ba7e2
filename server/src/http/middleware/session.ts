import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/tables.js';
import type { PendingChallenge } from '../../domain/user/passkey.js';
import { createSession, renewSession } from '../../domain/user/user.sessions.js';
import { nowSeconds } from '../../lib/time.js';

/** What the signed session cookie carries. Role and status are never stored: they are read fresh each request. */
export interface SessionData {
  userId?: number;
  /**
   * The user's `session_generation` when the session began. Raising the column (sign-out, password change,
   * ban, role change) ends the session at its next request on every node; a cookie without it counts as 0.
   */
  generation?: number;
  /** The session's row in user_sessions (decision 0002): sign-out or a revocation ends this session alone. */
  sid?: string;
  /** When (unix seconds) the user last proved who they are: sign-in or POST /api/user/reauth (decision 0030). */
  authAt?: number;
  /** A third-party sign-in waiting for the user's second factor (unix seconds when it began). */
  pendingUserId?: number;
  pendingAt?: number;
  oauthState?: string;
  /** A passkey ceremony's challenge, answered once within five minutes (decision 0030). */
  passkeyChallenge?: PendingChallenge;
  turnstile?: boolean;
  /** Secret behind the XSRF-TOKEN cookie (double-submit CSRF protection). */
  csrfSecret?: string;
}

const cookieName = 'session';
const maxAgeSeconds = 30 * 24 * 3600;
const decoded = new WeakMap<FastifyRequest, SessionData>();

export function readSession(request: FastifyRequest): SessionData {
  const cached = decoded.get(request);
  if (cached) return cached;
  let session: SessionData = {};
  const raw = request.cookies[cookieName];
  if (raw) {
    const unsigned = request.unsignCookie(raw);
    if (unsigned.valid && unsigned.value) {
      try {
        session = JSON.parse(Buffer.from(unsigned.value, 'base64url').toString('utf8')) as SessionData;
      } catch {
        session = {};
      }
    }
  }
  decoded.set(request, session);
  return session;
}

/** Replaces the session with `data` (httpOnly, SameSite=Lax, signed with SESSION_SECRET). */
export function writeSession(request: FastifyRequest, reply: FastifyReply, data: SessionData): void {
  decoded.set(request, data);
  reply.setCookie(cookieName, Buffer.from(JSON.stringify(data)).toString('base64url'), {
    signed: true,
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path: '/',
    maxAge: maxAgeSeconds,
  });
}

/** Begins a signed-in session for the user: a user_sessions row, bound to the user's session generation. */
export async function startUserSession(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  user: Pick<UserRow, 'id' | 'session_generation'>,
): Promise<void> {
  const userAgent = request.headers['user-agent'];
  const sid = await createSession(context, user, {
    ip: request.ip,
    userAgent: typeof userAgent === 'string' ? userAgent : '',
  });
  writeSession(request, reply, {
    userId: user.id,
    generation: user.session_generation ?? 0,
    sid,
    authAt: nowSeconds(),
  });
}

/** Keeps this session alive after its user's generation was raised on purpose (own password change). */
export async function renewUserSession(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  user: Pick<UserRow, 'id' | 'session_generation'>,
): Promise<void> {
  const { sid } = readSession(request);
  if (sid) await renewSession(context, sid, user.session_generation ?? 0);
  updateSession(request, reply, { userId: user.id, generation: user.session_generation ?? 0 });
}

export function updateSession(request: FastifyRequest, reply: FastifyReply, changes: Partial<SessionData>): void {
  writeSession(request, reply, { ...readSession(request), ...changes });
}

export function clearSession(request: FastifyRequest, reply: FastifyReply): void {
  decoded.set(request, {});
  reply.clearCookie(cookieName, { path: '/' });
}
