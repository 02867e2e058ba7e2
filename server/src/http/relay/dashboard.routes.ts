import type { onRequestAsyncHookHandler } from 'fastify';
import type { AppContext } from '../../context.js';
import { NeverExpires } from '../../domain/token/token.constants.js';
import { findTokenById } from '../../domain/token/token.repository.js';
import { findUserById } from '../../domain/user/user.repository.js';
import type { RelayPrincipal } from '../../relay/auth/token-auth.js';
import { sendJson, type EntryCall, type RelayRoute } from './relay-entry.js';
import { jsonLimitBytes } from './relay.routes.js';

/** What an unlimited token reports as its limit (one-api's figure). */
const unlimitedAmount = 100_000_000;

/**
 * The legacy OpenAI billing answers (`/dashboard/billing/*` and the `/v1/...` aliases) that old clients
 * use to show a key's balance (server-behaviour §4.12). Read fresh from the database: they are rare.
 */
export function dashboardRoutes(context: AppContext, apiLimit: onRequestAsyncHookHandler): RelayRoute[] {
  const inCurrency = (quota: number) =>
    context.options.bool('DisplayInCurrencyEnabled') ? quota / context.options.number('QuotaPerUnit') : quota;

  /** The token and its owner as stored now (the principal's copies come from the caches). */
  const fresh = async (principal: RelayPrincipal) => ({
    token: (await findTokenById(context.database.db, principal.token.id)) ?? principal.token,
    user: (await findUserById(context.database.db, principal.user.id)) ?? principal.user,
  });
  const subscription = async ({ principal, reply }: EntryCall) => {
    const { token, user } = await fresh(principal);
    let amount: number;
    if (context.options.bool('DisplayTokenStatEnabled')) {
      amount = token.unlimited_quota ? unlimitedAmount : inCurrency(token.remain_quota + token.used_quota);
    } else {
      amount = inCurrency(user.quota + user.used_quota);
    }
    sendJson(reply, 200, {
      object: 'billing_subscription',
      has_payment_method: true,
      soft_limit_usd: amount,
      hard_limit_usd: amount,
      system_hard_limit_usd: amount,
      access_until: token.expired_time === NeverExpires ? 0 : token.expired_time,
    });
  };
  const usage = async ({ principal, reply }: EntryCall) => {
    const { token, user } = await fresh(principal);
    const used = context.options.bool('DisplayTokenStatEnabled') ? token.used_quota : user.used_quota;
    sendJson(reply, 200, { object: 'list', total_usage: inCurrency(used) * 100 });
  };
  return ['', '/v1'].flatMap((prefix): RelayRoute[] => [
    {
      method: 'GET',
      path: `${prefix}/dashboard/billing/subscription`,
      endpoint: { bodyLimitBytes: jsonLimitBytes, handle: subscription },
      onRequest: apiLimit,
    },
    {
      method: 'GET',
      path: `${prefix}/dashboard/billing/usage`,
      endpoint: { bodyLimitBytes: jsonLimitBytes, handle: usage },
      onRequest: apiLimit,
    },
  ]);
}
