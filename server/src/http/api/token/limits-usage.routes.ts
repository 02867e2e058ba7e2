import { limitsUsageQuery, type LimitsUsage, type TokenLimitsUsage } from '@modelgate/wire';
import type { AppContext } from '../../../context.js';
import type { TokenRow, UserRow } from '../../../db/tables.js';
import { limitsUsed } from '../../../relay/limits/call-limits.js';
import { ownLimitChecks } from '../../../relay/limits/limit-plan.js';
import { currentUser } from '../../middleware/authenticate.js';
import { ok } from '../../reply.js';
import { validate } from '../../validate.js';
import type { RouteModule } from '../route-kit.js';

type LimitedRow = Pick<
  TokenRow | UserRow,
  'rpm_limit' | 'tpm_limit' | 'concurrency_limit' | 'budget_quota' | 'budget_period'
>;

/** A token's or user's own limits against what their counters hold now (read only: no counter is created). */
async function usageOf(context: AppContext, scope: string, row: LimitedRow): Promise<LimitsUsage> {
  const checks = ownLimitChecks(scope, row, context.options.string('TimeZone') || 'UTC', Date.now());
  const used = await limitsUsed(context, checks);
  const use = (kind: 'r' | 'k' | 'c') => {
    const at = checks.findIndex((check) => check.kind === kind);
    return at < 0 ? { used: 0, limit: 0 } : { used: Number(used[at]), limit: checks[at]!.limit };
  };
  const budgetAt = checks.findIndex((check) => check.kind === 'b');
  const budget = checks[budgetAt];
  return {
    rpm: use('r'),
    tpm: use('k'),
    concurrency: use('c'),
    budget: budget
      ? {
          spent: Number(used[budgetAt]),
          quota: budget.limit,
          period: row.budget_period as 'day' | 'week' | 'month',
          resets_at: Math.floor(budget.endsAtMs! / 1000),
        }
      : null,
  };
}

/**
 * Issue 31's console: current use of each limit, for the token list (the caller's own tokens only, as every
 * token route) and next to the balance (the caller's own limits).
 */
export const limitsUsageRoutes: RouteModule = (app, { context, requireUser }) => {
  const db = context.database.db;

  app.get('/token/limits_usage', { preHandler: requireUser }, async (request) => {
    const { ids } = validate(limitsUsageQuery, request.query);
    const tokens = await db
      .selectFrom('tokens')
      .selectAll()
      .where('user_id', '=', currentUser(request).id)
      .where('id', 'in', ids)
      .execute();
    const answer: TokenLimitsUsage = {};
    for (const token of tokens) answer[String(token.id)] = await usageOf(context, `t:${token.id}`, token);
    return ok(answer);
  });

  app.get('/user/self/limits_usage', { preHandler: requireUser }, async (request) => {
    const user = currentUser(request);
    return ok(await usageOf(context, `u:${user.id}`, user));
  });
};
