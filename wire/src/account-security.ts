import { z } from 'zod';
import { idParams, plainName } from './fields.js';
import type { Operation } from './operation.js';
import { user } from './user.js';

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

/**
 * A WebAuthn answer as @simplewebauthn/browser gives it (PublicKeyCredential's JSON): checked field by field
 * on the server by @simplewebauthn/server.
 */
const webAuthnResponse = z
  .object({
    id: z.string().min(1).max(1400),
    rawId: z.string().min(1).max(1400),
    type: z.literal('public-key'),
    response: z.record(z.string(), z.unknown()),
    clientExtensionResults: z.record(z.string(), z.unknown()).optional().default({}),
    authenticatorAttachment: z.string().max(32).optional(),
  })
  .loose();

/**
 * Proves again who is behind the session (decision 0030): the password, a TOTP or backup code, or a passkey's
 * answer to the options of POST /api/user/passkey/reauth/options.
 */
export const reauthBody = z
  .object({
    password: z.string().max(128).optional(),
    totp_code: z.string().trim().max(64).optional(),
    passkey: webAuthnResponse.optional(),
  })
  .refine(
    (body) => Boolean(body.password || body.totp_code || body.passkey),
    'password, totp_code or passkey is required',
  );

/** Adds a passkey: the browser's answer to the registration options and a name for the list. */
export const passkeyRegisterBody = z.object({
  response: webAuthnResponse,
  name: plainName(z.string().trim().max(64)).optional(),
});

/** Signs in with a passkey: the browser's answer to the sign-in options. */
export const passkeyLoginBody = z.object({ response: webAuthnResponse });

export const passkeyParams = idParams;

/** One of the caller's passkeys (its key never leaves the server). */
export const passkey = z.object({ id: z.number(), name: z.string(), created_at: z.number(), last_used_at: z.number() });

/** WebAuthn options (PublicKeyCredentialCreationOptionsJSON or …RequestOptionsJSON) for the browser. */
const webAuthnOptions = z.object({ challenge: z.string(), rpId: z.string().optional() }).loose();

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
    summary:
      'Confirm the password, a code or a passkey: price writes and a new access token are allowed for five minutes',
    access: 'user',
    body: reauthBody,
    answer: z.object({ two_factor: z.boolean() }),
  },
  {
    method: 'GET',
    path: '/api/user/passkeys',
    summary: "The caller's passkeys",
    access: 'user',
    answer: z.array(passkey),
  },
  {
    method: 'POST',
    path: '/api/user/passkey/register/options',
    summary: 'WebAuthn options to create a passkey (the challenge is kept in the session for five minutes)',
    access: 'user',
    answer: webAuthnOptions,
  },
  {
    method: 'POST',
    path: '/api/user/passkey/register',
    summary: "Add a passkey from the browser's answer to the registration options",
    access: 'user',
    body: passkeyRegisterBody,
    answer: passkey,
  },
  {
    method: 'POST',
    path: '/api/user/passkey/reauth/options',
    summary: 'WebAuthn options to confirm the caller with one of their passkeys (answered to POST /api/user/reauth)',
    access: 'user',
    answer: webAuthnOptions,
  },
  {
    method: 'DELETE',
    path: '/api/user/passkeys/:id',
    summary: "Remove one of the caller's passkeys (asks for re-authentication after five minutes)",
    access: 'user',
    params: passkeyParams,
  },
  {
    method: 'POST',
    path: '/api/user/passkey/login/options',
    summary: 'WebAuthn options to sign in with a discoverable passkey (the challenge is kept in the session)',
    access: 'public',
    answer: webAuthnOptions,
  },
  {
    method: 'POST',
    path: '/api/user/passkey/login',
    summary: 'Sign in with a passkey; it counts as the second factor',
    access: 'public',
    body: passkeyLoginBody,
    answer: user,
  },
];
