import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { LocalCache } from '../../cache/local-cache.js';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/tables.js';
import { AppError } from '../../lib/errors.js';
import { nowSeconds } from '../../lib/time.js';
import { UserStatus } from './user.constants.js';
import { hasTwoFactor } from './user.two-factor.js';
import { isUniqueViolation } from './unique-violation.js';

/**
 * Passkeys (WebAuthn, decision 0030): a sign-in method of its own that counts as a second factor, since the
 * authenticator both holds the key and verifies its user (user verification is required). Sign-in uses
 * discoverable credentials, so no username is asked. Each ceremony's challenge lives in the signed session
 * cookie for five minutes and is spent once on the server, so a captured cookie and answer cannot be replayed.
 */
const challengeSeconds = 5 * 60;
const maxPasskeysPerUser = 20;
const passkeyTopic = 'passkeys';

export const PasskeyErrors = {
  refused: () =>
    new AppError('passkey_refused', { zh: '通行密钥验证失败，请重试', en: 'The passkey was not accepted: try again' }),
  expired: () =>
    new AppError('passkey_challenge_expired', {
      zh: '通行密钥请求已过期，请重试',
      en: 'The passkey request expired: try again',
    }),
  duplicate: () => new AppError('passkey_duplicate', { zh: '该通行密钥已添加', en: 'This passkey is already added' }),
  tooMany: () =>
    new AppError('passkey_too_many', {
      zh: `最多可添加 ${maxPasskeysPerUser} 个通行密钥`,
      en: `At most ${maxPasskeysPerUser} passkeys per account`,
    }),
  notFound: () => new AppError('passkey_not_found', { zh: '通行密钥不存在', en: 'No such passkey' }),
};

/** The relying party: the WebAuthn id (a host name) and the origin the browser must report. */
export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

const loopback = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * The relying party comes from the ServerAddress option (the console's public address): a passkey is bound to
 * that host name and works there only. A request that reaches the server on a loopback name other than
 * ServerAddress's (local use, tests) uses its own Host and protocol instead.
 */
export function relyingParty(context: AppContext, request: { protocol: string; host: string }): RelyingParty {
  const name = context.options.string('SystemName') || 'ModelGate';
  let configured: URL | undefined;
  try {
    configured = new URL(context.options.string('ServerAddress'));
  } catch {
    configured = undefined;
  }
  const requestUrl = safeUrl(`${request.protocol}://${request.host}`);
  if (requestUrl && loopback.has(requestUrl.hostname) && requestUrl.host !== configured?.host)
    return { id: requestUrl.hostname.replace(/^\[|\]$/g, ''), origin: requestUrl.origin, name };
  if (!configured) throw PasskeyErrors.refused();
  return { id: configured.hostname, origin: configured.origin, name };
}

function safeUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** What the session keeps between a ceremony's options and its answer. */
export interface PendingChallenge {
  challenge: string;
  at: number;
  /** register: add a passkey; login: sign in; reauth: confirm the signed-in user (userId) again. */
  purpose: 'register' | 'login' | 'reauth';
  userId?: number;
}

/** Challenges already answered (Redis when configured, so every node knows; else this node). */
const localSpent = new Map<string, number>();

async function spendChallenge(context: AppContext, challenge: string): Promise<boolean> {
  const now = nowSeconds();
  if (context.redis) {
    try {
      return (await context.redis.set(`passkey-challenge:${challenge}`, '1', 'EX', challengeSeconds, 'NX')) === 'OK';
    } catch {
      // Redis away: this node's record below
    }
  }
  for (const [old, at] of localSpent) if (now - at > challengeSeconds) localSpent.delete(old);
  if (localSpent.has(challenge)) return false;
  localSpent.set(challenge, now);
  return true;
}

/**
 * The one check of every ceremony's answer: the pending challenge of `purpose` (and of `userId`, when the
 * ceremony belongs to a signed-in user) is fresh and spent now; then the authenticator's answer must sign that
 * challenge, for this relying party's id and origin, with its user verified. `verify` runs @simplewebauthn's
 * check with `expected`; any failure of it is the one refusal.
 */
async function checkCeremony<T extends { verified: boolean }>(
  context: AppContext,
  party: RelyingParty,
  pending: PendingChallenge | undefined,
  purpose: PendingChallenge['purpose'],
  userId: number | undefined,
  verify: (expected: CeremonyExpectation) => Promise<T>,
): Promise<T> {
  if (!pending || pending.purpose !== purpose || nowSeconds() - pending.at > challengeSeconds)
    throw PasskeyErrors.expired();
  if (!(await spendChallenge(context, pending.challenge))) throw PasskeyErrors.expired();
  if (pending.userId !== userId) throw PasskeyErrors.expired();
  let verification: T;
  try {
    verification = await verify({
      expectedChallenge: pending.challenge,
      expectedOrigin: party.origin,
      expectedRPID: party.id,
      requireUserVerification: true,
    });
  } catch {
    // A counter that did not grow (a cloned authenticator) is refused here too.
    throw PasskeyErrors.refused();
  }
  if (!verification.verified) throw PasskeyErrors.refused();
  return verification;
}

interface CeremonyExpectation {
  expectedChallenge: string;
  expectedOrigin: string;
  expectedRPID: string;
  requireUserVerification: true;
}

const userHandle = (userId: number) => new TextEncoder().encode(`modelgate:${userId}`);
const transportsOf = (stored: string) => {
  try {
    return JSON.parse(stored) as AuthenticatorTransportFuture[];
  } catch {
    return [];
  }
};

function listRows(context: AppContext, userId: number) {
  return context.database.db
    .selectFrom('user_passkeys')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}

/** A ceremony's options for the browser and what the session keeps until its answer. */
type Ceremony<Options> = Promise<{ options: Options; pending: PendingChallenge }>;

/** The stored credentials as WebAuthn lists them (excluded from a registration, allowed for a re-auth). */
const descriptors = (rows: { credential_id: string; transports: string }[]) =>
  rows.map((row) => ({ id: row.credential_id, transports: transportsOf(row.transports) }));

export async function registrationOptions(
  context: AppContext,
  user: UserRow,
  party: RelyingParty,
): Ceremony<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await listRows(context, user.id);
  if (existing.length >= maxPasskeysPerUser) throw PasskeyErrors.tooMany();
  const options = await generateRegistrationOptions({
    rpName: party.name,
    rpID: party.id,
    userName: user.username,
    userDisplayName: user.display_name || user.username,
    userID: userHandle(user.id),
    attestationType: 'none',
    excludeCredentials: descriptors(existing),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    timeout: challengeSeconds * 1000,
  });
  return { options, pending: { challenge: options.challenge, at: nowSeconds(), purpose: 'register', userId: user.id } };
}

export async function registerPasskey(
  context: AppContext,
  user: UserRow,
  party: RelyingParty,
  pending: PendingChallenge | undefined,
  response: RegistrationResponseJSON,
  name: string,
): Promise<PresentedPasskey> {
  const verification = await checkCeremony(context, party, pending, 'register', user.id, (expected) =>
    verifyRegistrationResponse({ response, ...expected }),
  );
  if (!verification.registrationInfo) throw PasskeyErrors.refused();
  const { credential } = verification.registrationInfo;
  if (credential.id.length > 191) throw PasskeyErrors.refused();
  if ((await listRows(context, user.id)).length >= maxPasskeysPerUser) throw PasskeyErrors.tooMany();
  const now = nowSeconds();
  const row = {
    user_id: user.id,
    credential_id: credential.id,
    public_key: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: JSON.stringify(credential.transports ?? []),
    name: name || 'Passkey',
    created_at: now,
    last_used_at: 0,
  };
  try {
    await context.database.db.insertInto('user_passkeys').values(row).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw PasskeyErrors.duplicate();
    throw error;
  }
  await context.bus.publish(passkeyTopic, user.id);
  const stored = await context.database.db
    .selectFrom('user_passkeys')
    .selectAll()
    .where('credential_id', '=', credential.id)
    .executeTakeFirstOrThrow();
  return presentPasskey(stored);
}

export async function loginOptions(party: RelyingParty): Ceremony<PublicKeyCredentialRequestOptionsJSON> {
  // No allowCredentials: the authenticator offers its discoverable credentials for this relying party.
  const options = await generateAuthenticationOptions({
    rpID: party.id,
    userVerification: 'required',
    timeout: challengeSeconds * 1000,
  });
  return { options, pending: { challenge: options.challenge, at: nowSeconds(), purpose: 'login' } };
}

/**
 * Options to confirm the signed-in user again with one of their passkeys (POST /api/user/reauth): the
 * authenticator is offered this user's credentials only.
 */
export async function reauthOptions(
  context: AppContext,
  user: UserRow,
  party: RelyingParty,
): Ceremony<PublicKeyCredentialRequestOptionsJSON> {
  const rows = await listRows(context, user.id);
  if (rows.length === 0) throw PasskeyErrors.notFound();
  const options = await generateAuthenticationOptions({
    rpID: party.id,
    allowCredentials: descriptors(rows),
    userVerification: 'required',
    timeout: challengeSeconds * 1000,
  });
  return { options, pending: { challenge: options.challenge, at: nowSeconds(), purpose: 'reauth', userId: user.id } };
}

/**
 * The user whose passkey signed the challenge. Every failure answers the same message, so the answer does not
 * tell whether a credential exists.
 */
export function verifyPasskeyLogin(
  context: AppContext,
  party: RelyingParty,
  pending: PendingChallenge | undefined,
  response: AuthenticationResponseJSON,
): Promise<UserRow> {
  return verifyAssertion(context, party, pending, response, 'login', undefined);
}

/** Confirms the signed-in `user` again: the answer must come from one of that user's own passkeys. */
export async function verifyPasskeyReauth(
  context: AppContext,
  user: UserRow,
  party: RelyingParty,
  pending: PendingChallenge | undefined,
  response: AuthenticationResponseJSON,
): Promise<void> {
  await verifyAssertion(context, party, pending, response, 'reauth', user.id);
}

/**
 * An assertion (sign-in or re-authentication) checked as every ceremony is, by a stored credential of an
 * enabled user (of `userId` when given). The counter is written conditionally, so two answers racing with one
 * counter value cannot both pass.
 */
async function verifyAssertion(
  context: AppContext,
  party: RelyingParty,
  pending: PendingChallenge | undefined,
  response: AuthenticationResponseJSON,
  purpose: 'login' | 'reauth',
  userId: number | undefined,
): Promise<UserRow> {
  const db = context.database.db;
  const row = await db
    .selectFrom('user_passkeys')
    .selectAll()
    .where('credential_id', '=', response.id)
    .executeTakeFirst();
  const returnedHandle = response.response.userHandle;
  const user =
    row && (userId === undefined || row.user_id === userId)
      ? await db.selectFrom('users').selectAll().where('id', '=', row.user_id).executeTakeFirst()
      : undefined;
  // The challenge is spent whatever the answer, so a refused answer cannot be tried again with it.
  const verification = await checkCeremony(context, party, pending, purpose, userId, (expected) => {
    if (!row || !user || user.status !== UserStatus.Enabled) throw PasskeyErrors.refused();
    if (returnedHandle && returnedHandle !== Buffer.from(userHandle(row.user_id)).toString('base64url'))
      throw PasskeyErrors.refused();
    return verifyAuthenticationResponse({
      response,
      ...expected,
      credential: {
        id: row.credential_id,
        publicKey: new Uint8Array(Buffer.from(row.public_key, 'base64url')),
        counter: Number(row.counter),
        transports: transportsOf(row.transports),
      },
    });
  });
  if (!row || !user) throw PasskeyErrors.refused();
  const written = await db
    .updateTable('user_passkeys')
    .set({ counter: verification.authenticationInfo.newCounter, last_used_at: nowSeconds() })
    .where('id', '=', row.id)
    .where('counter', '=', row.counter)
    .executeTakeFirst();
  if (Number(written.numUpdatedRows) !== 1) throw PasskeyErrors.refused();
  return user;
}

export interface PresentedPasskey {
  id: number;
  name: string;
  created_at: number;
  last_used_at: number;
}

function presentPasskey(row: { id: number; name: string; created_at: number; last_used_at: number }): PresentedPasskey {
  return { id: row.id, name: row.name, created_at: Number(row.created_at), last_used_at: Number(row.last_used_at) };
}

export async function listPasskeys(context: AppContext, userId: number): Promise<PresentedPasskey[]> {
  return (await listRows(context, userId)).map(presentPasskey);
}

export async function deletePasskey(context: AppContext, userId: number, id: number): Promise<void> {
  const result = await context.database.db
    .deleteFrom('user_passkeys')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) !== 1) throw PasskeyErrors.notFound();
  await context.bus.publish(passkeyTopic, userId);
}

const passkeyCaches = new WeakMap<AppContext, LocalCache<boolean>>();

/** user id → has a passkey; emptied through the bus (topic `passkeys`) on every node. */
function passkeyCache(context: AppContext): LocalCache<boolean> {
  let cache = passkeyCaches.get(context);
  if (cache) return cache;
  cache = new LocalCache(Math.max(context.config.SYNC_FREQUENCY, 1) * 1000);
  const created = cache;
  context.bus.subscribe(({ topic, key }) => {
    if (topic === passkeyTopic) created.delete(key);
    if (topic === 'resync') created.clear();
  });
  passkeyCaches.set(context, cache);
  return cache;
}

export function hasPasskey(context: AppContext, userId: number): Promise<boolean> {
  return passkeyCache(context).getOrLoad(String(userId), async () =>
    Boolean(
      await context.database.db
        .selectFrom('user_passkeys')
        .select('id')
        .where('user_id', '=', userId)
        .executeTakeFirst(),
    ),
  );
}

/** AdminRequire2FA: TOTP or a passkey. */
export async function hasSecondFactor(context: AppContext, userId: number): Promise<boolean> {
  return (await hasTwoFactor(context, userId)) || (await hasPasskey(context, userId));
}
