import { z } from 'zod';
import type { Operation } from './operation.js';

/** Issue 32, points 1 and 2: one signed-in session of the caller (decision 0002). */
export const userSession = z.object({
  id: z.string(),
  created_at: z.number(),
  last_seen_at: z.number(),
  ip: z.string(),
  user_agent: z.string(),
  /** The session this request came from. */
  current: z.boolean(),
});

export const sessionParams = z.object({ id: z.string().min(1).max(64) });

/** A TOTP code (6 digits) or, where a backup code is accepted, one of the ten backup codes. */
export const twoFactorCodeBody = z.object({ code: z.string().trim().min(1, 'code is required').max(64) });

export const twoFactorSetup = z.object({
  /** Base32, shown once: the server keeps it encrypted and never sends it again. */
  secret: z.string(),
  otpauth_url: z.string(),
  /** Ten single-use codes, shown once (stored hashed). */
  backup_codes: z.array(z.string()),
});

export const twoFactorStatus = z.object({ enabled: z.boolean(), backup_codes_left: z.number() });

/** Proves again who is behind the session: the password, or a TOTP or backup code (decision 0030). */
export const reauthBody = z
  .object({ password: z.string().max(128).optional(), totp_code: z.string().trim().max(64).optional() })
  .refine((body) => Boolean(body.password || body.totp_code), 'password or totp_code is required');

export const accountSecurityOperations: Operation[] = [
  {
    method: 'GET',
    path: '/api/user/sessions',
    summary: "The caller's signed-in sessions, the most recently seen first",
    access: 'user',
    answer: z.array(userSession),
  },
  {
    method: 'DELETE',
    path: '/api/user/sessions',
    summary: "End every session of the caller's but this one",
    access: 'user',
    answer: z.object({ ended: z.number() }),
  },
  {
    method: 'POST',
    path: '/api/user/sessions/logout_others',
    summary: "End every session of the caller's but this one (as DELETE /api/user/sessions)",
    access: 'user',
    answer: z.object({ ended: z.number() }),
  },
  {
    method: 'DELETE',
    path: '/api/user/sessions/:id',
    summary: "End one of the caller's sessions",
    access: 'user',
    params: sessionParams,
  },
  {
    method: 'GET',
    path: '/api/user/2fa',
    summary: "Whether the caller's second factor is on",
    access: 'user',
    answer: twoFactorStatus,
  },
  {
    method: 'POST',
    path: '/api/user/2fa/setup',
    summary: 'A new TOTP secret and backup codes, in force once enabled',
    access: 'user',
    answer: twoFactorSetup,
  },
  {
    method: 'POST',
    path: '/api/user/2fa/enable',
    summary: 'Turn the second factor on with a code from the authenticator',
    access: 'user',
    body: twoFactorCodeBody,
  },
  {
    method: 'POST',
    path: '/api/user/2fa/disable',
    summary: 'Turn the second factor off with a TOTP or backup code',
    access: 'user',
    body: twoFactorCodeBody,
  },
  {
    method: 'POST',
    path: '/api/user/reauth',
    summary: 'Confirm the password or a code: price writes are allowed for five minutes',
    access: 'user',
    body: reauthBody,
    answer: z.object({ two_factor: z.boolean() }),
  },
];
