import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import type { AppContext } from '../../context.js';
import { NeverExpires } from '../../domain/token/token.constants.js';
import { findTokenById } from '../../domain/token/token.repository.js';
import { findUserById } from '../../domain/user/user.repository.js';
import { principalOf, tokenCheck } from './relay.routes.js';

/** What an unlimited token reports as its limit (one-api's figure). */
const unlimitedAmount = 100_000_000;

/**
 * The legacy OpenAI billing answers (`/dashboard/billing/*` and the `/v1/...` aliases) that old clients
 * use to show a key's balance (server-behaviour §4.12). Read fresh from the database: they are rare.
 */
export function dashboardRoutes(
  scope: FastifyInstance,
  context: AppContext,
  apiLimit: onRequestAsyncHookHandler,
): void {
  const preHandler = tokenCheck(context);
  const inCurrency = (quota: number) =>
    context.options.bool('DisplayInCurrencyEnabled') ? quota / context.options.number('QuotaPerUnit') : quota;

  const subscription = async (request: Parameters<typeof principalOf>[0]) => {
    const principal = principalOf(request);
    const token = (await findTokenById(context.database.db, principal.token.id)) ?? principal.token;
    const user = (await findUserById(context.database.db, principal.user.id)) ?? principal.user;
    let amount: number;
    if (context.options.bool('DisplayTokenStatEnabled')) {
      amount = token.unlimited_quota ? unlimitedAmount : inCurrency(token.remain_quota + token.used_quota);
    } else {
      amount = inCurrency(user.quota + user.used_quota);
    }
    return {
      object: 'billing_subscription',
      has_payment_method: true,
      soft_limit_usd: amount,
      hard_limit_usd: amount,
      system_hard_limit_usd: amount,
      access_until: token.expired_time === NeverExpires ? 0 : token.expired_time,
    };
  };
  const usage = async (request: Parameters<typeof principalOf>[0]) => {
    const principal = principalOf(request);
    const token = (await findTokenById(context.database.db, principal.token.id)) ?? principal.token;
    const user = (await findUserById(context.database.db, principal.user.id)) ?? principal.user;
    const used = context.options.bool('DisplayTokenStatEnabled') ? token.used_quota : user.used_quota;
    return { object: 'list', total_usage: inCurrency(used) * 100 };
  };
  for (const prefix of ['', '/v1']) {
    scope.get(`${prefix}/dashboard/billing/subscription`, { onRequest: apiLimit, preHandler }, subscription);
    scope.get(`${prefix}/dashboard/billing/usage`, { onRequest: apiLimit, preHandler }, usage);
  }
}
