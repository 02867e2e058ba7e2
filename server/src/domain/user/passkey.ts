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
  purpose: 'register' | 'login';
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

/** The pending challenge of `purpose`, checked fresh and spent; throws when absent, stale or already used. */
async function takeChallenge(
  context: AppContext,
  pending: PendingChallenge | undefined,
  purpose: PendingChallenge['purpose'],
): Promise<PendingChallenge> {
  if (!pending || pending.purpose !== purpose || nowSeconds() - pending.at > challengeSeconds)
    throw PasskeyErrors.expired();
  if (!(await spendChallenge(context, pending.challenge))) throw PasskeyErrors.expired();
  return pending;
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

export async function registrationOptions(
  context: AppContext,
  user: UserRow,
  party: RelyingParty,
): Promise<{ options: PublicKeyCredentialCreationOptionsJSON; pending: PendingChallenge }> {
  const existing = await listRows(context, user.id);
  if (existing.length >= maxPasskeysPerUser) throw PasskeyErrors.tooMany();
  const options = await generateRegistrationOptions({
    rpName: party.name,
    rpID: party.id,
    userName: user.username,
    userDisplayName: user.display_name || user.username,
    userID: userHandle(user.id),
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: transportsOf(row.transports) })),
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
  const { challenge, userId } = await takeChallenge(context, pending, 'register');
  if (userId !== user.id) throw PasskeyErrors.expired();
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: party.origin,
      expectedRPID: party.id,
      requireUserVerification: true,
    });
  } catch {
    throw PasskeyErrors.refused();
  }
  if (!verification.verified || !verification.registrationInfo) throw PasskeyErrors.refused();
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

export async function loginOptions(
  party: RelyingParty,
): Promise<{ options: PublicKeyCredentialRequestOptionsJSON; pending: PendingChallenge }> {
  // No allowCredentials: the authenticator offers its discoverable credentials for this relying party.
  const options = await generateAuthenticationOptions({
    rpID: party.id,
    userVerification: 'required',
    timeout: challengeSeconds * 1000,
  });
  return { options, pending: { challenge: options.challenge, at: nowSeconds(), purpose: 'login' } };
}

/**
 * The user whose passkey signed the challenge. Every failure answers the same message, so the answer does not
 * tell whether a credential exists. The counter is written conditionally, so two answers racing with one
 * counter value cannot both pass.
 */
export async function verifyPasskeyLogin(
  context: AppContext,
  party: RelyingParty,
  pending: PendingChallenge | undefined,
  response: AuthenticationResponseJSON,
): Promise<UserRow> {
  const { challenge } = await takeChallenge(context, pending, 'login');
  const db = context.database.db;
  const row = await db
    .selectFrom('user_passkeys')
    .selectAll()
    .where('credential_id', '=', response.id)
    .executeTakeFirst();
  if (!row) throw PasskeyErrors.refused();
  const returnedHandle = response.response.userHandle;
  if (returnedHandle && returnedHandle !== Buffer.from(userHandle(row.user_id)).toString('base64url'))
    throw PasskeyErrors.refused();
  const user = await db.selectFrom('users').selectAll().where('id', '=', row.user_id).executeTakeFirst();
  if (!user || user.status !== UserStatus.Enabled) throw PasskeyErrors.refused();
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: party.origin,
      expectedRPID: party.id,
      credential: {
        id: row.credential_id,
        publicKey: new Uint8Array(Buffer.from(row.public_key, 'base64url')),
        counter: Number(row.counter),
        transports: transportsOf(row.transports),
      },
      requireUserVerification: true,
    });
  } catch {
    // A counter that did not grow (a cloned authenticator) is refused here too.
    throw PasskeyErrors.refused();
  }
  if (!verification.verified) throw PasskeyErrors.refused();
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
