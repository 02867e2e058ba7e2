import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserRow } from '../../db/tables.js';

/** What the signed session cookie carries. Role and status are never stored: they are read fresh each request. */
export interface SessionData {
  userId?: number;
  /**
   * The user's `session_generation` when the session began. Raising the column (sign-out, password change,
   * ban, role change) ends the session at its next request on every node; a cookie without it counts as 0.
   */
  generation?: number;
  oauthState?: string;
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

/** Begins a signed-in session for the user, bound to the user's current session generation. */
export function startUserSession(
  request: FastifyRequest,
  reply: FastifyReply,
  user: Pick<UserRow, 'id' | 'session_generation'>,
): void {
  writeSession(request, reply, { userId: user.id, generation: user.session_generation ?? 0 });
}

/** Keeps this session alive after its user's generation was raised on purpose (own password change). */
export function renewUserSession(
  request: FastifyRequest,
  reply: FastifyReply,
  user: Pick<UserRow, 'id' | 'session_generation'>,
): void {
  updateSession(request, reply, { userId: user.id, generation: user.session_generation ?? 0 });
}

export function updateSession(request: FastifyRequest, reply: FastifyReply, changes: Partial<SessionData>): void {
  writeSession(request, reply, { ...readSession(request), ...changes });
}

export function clearSession(request: FastifyRequest, reply: FastifyReply): void {
  decoded.set(request, {});
  reply.clearCookie(cookieName, { path: '/' });
}
