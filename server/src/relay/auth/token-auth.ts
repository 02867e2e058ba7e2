import type { AppContext } from '../../context.js';
import type { TokenRow, UserRow } from '../../db/tables.js';
import { getCachedTokenByKey } from '../../domain/token/token.cache.js';
import { NeverExpires, TokenStatus } from '../../domain/token/token.constants.js';
import { markTokenExhausted, markTokenExpired } from '../../domain/token/token.lapse.js';
import { findTokenByKey } from '../../domain/token/token.repository.js';
import { isAddressInSubnets } from '../../domain/token/token.subnet.js';
import { getCachedUser } from '../../domain/user/user.cache.js';
import { Role, UserStatus } from '../../domain/user/user.constants.js';
import { nowSeconds } from '../../lib/time.js';
import { relayErrors } from '../relay-errors.js';

/** Who is calling the relay: the token, its owner, and a channel an admin forced with `sk-key-<id>`. */
export interface RelayPrincipal {
  token: TokenRow;
  user: UserRow;
  forcedChannelId?: number;
  /** The raw suffix when it was not a number (answered 400 once a channel is needed). */
  badChannelSuffix?: string;
}

/**
 * Waits for the status write of a lapsed token (one-api saves 3 or 4, so consoles show why), but a failed
 * write only costs that display: the call is refused all the same.
 */
async function recordLapse(context: AppContext, write: Promise<void>): Promise<void> {
  try {
    await write;
  } catch (error) {
    context.logger.warn({ err: error }, 'saving the status of an expired or exhausted token failed');
  }
}

/** Splits `Bearer sk-<key>[-<channelId>]` as one-api does. */
export function parseAuthorization(header: string | undefined): { key: string; suffix?: string } {
  const value = (header ?? '')
    .replace(/^Bearer\s+/i, '')
    .trim()
    .replace(/^sk-/, '');
  const [key = '', suffix] = value.split('-');
  return { key, suffix };
}

/**
 * one-api's token checks in order (server-behaviour §4.3), from the in-process caches: key, status, expiry,
 * remaining quota, subnet, owner status, channel suffix. The model allow-list is checked once the body is read.
 */
export async function authenticateRelay(
  context: AppContext,
  authorization: string | undefined,
  clientIp: string,
): Promise<RelayPrincipal> {
  const { key, suffix } = parseAuthorization(authorization);
  if (!key) throw relayErrors.noToken();
  let token = await getCachedTokenByKey(context, key);
  if (!token) throw relayErrors.invalidToken();
  if (token.status === TokenStatus.Exhausted) throw relayErrors.tokenExhaustedNamed(token.name, token.id);
  if (token.status === TokenStatus.Expired) throw relayErrors.tokenExpired();
  if (token.status !== TokenStatus.Enabled) throw relayErrors.tokenUnavailable();
  const now = nowSeconds();
  if (token.expired_time !== NeverExpires && token.expired_time < now) {
    await recordLapse(context, markTokenExpired(context, token, now));
    throw relayErrors.tokenExpired();
  }
  if (!token.unlimited_quota && token.remain_quota <= 0) {
    // The cached copy may trail another node's refund: look once more before refusing.
    token = (await findTokenByKey(context.database.db, key)) ?? token;
    if (!token.unlimited_quota && token.remain_quota <= 0) {
      await recordLapse(context, markTokenExhausted(context, token));
      throw relayErrors.tokenExhausted();
    }
  }
  if (!isAddressInSubnets(clientIp, token.subnet)) throw relayErrors.subnetRefused(token.subnet ?? '', clientIp);
  const user = await getCachedUser(context, token.user_id);
  if (!user || user.status !== UserStatus.Enabled) throw relayErrors.userBanned();
  const principal: RelayPrincipal = { token, user };
  if (suffix !== undefined && suffix !== '') {
    if (user.role < Role.Admin) throw relayErrors.channelForbidden();
    if (/^\d{1,9}$/.test(suffix)) principal.forcedChannelId = Number(suffix);
    else principal.badChannelSuffix = suffix;
  }
  return principal;
}

/** The token's model allow-list check (an empty list allows every model). */
export function assertModelAllowed(token: TokenRow, model: string): void {
  if (!token.models || !model) return;
  const allowed = token.models.split(',').map((name) => name.trim());
  if (!allowed.includes(model)) throw relayErrors.modelNotAllowed(model);
}
