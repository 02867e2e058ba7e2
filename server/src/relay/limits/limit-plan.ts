import type { AppContext } from '../../context.js';
import type { TokenRow, UserRow } from '../../db/tables.js';
import { budgetPeriodAt } from './budget-period.js';
import type { GroupLimits } from '../../domain/limits/group-limits.js';

/**
 * One limit a call must fit: requests (`r`) or tokens (`k`) in a 60 s window, calls in flight (`c`), or a
 * budget's spend in its period (`b`). `key` names its counter, shared by every node.
 */
export interface LimitCheck {
  kind: 'r' | 'k' | 'c' | 'b';
  key: string;
  limit: number;
  /** A budget's period end (its counter's life and the wait it answers). */
  endsAtMs?: number;
}

type LimitedRow = Pick<TokenRow, 'rpm_limit' | 'tpm_limit' | 'concurrency_limit' | 'budget_quota' | 'budget_period'>;

// Compared as written: PostgreSQL answers bigint columns as text, which `> 0` reads as a number.
const limited = (row: LimitedRow) =>
  row.rpm_limit > 0 || row.tpm_limit > 0 || row.concurrency_limit > 0 || row.budget_quota > 0;

function addRates(
  checks: LimitCheck[],
  scope: string,
  rpm: number | undefined,
  tpm: number | undefined,
  concurrency: number | undefined,
) {
  if (Number(rpm) > 0) checks.push({ kind: 'r', key: `${scope}:r`, limit: Number(rpm) });
  if (Number(tpm) > 0) checks.push({ kind: 'k', key: `${scope}:k`, limit: Number(tpm) });
  if (Number(concurrency) > 0) checks.push({ kind: 'c', key: `${scope}:c`, limit: Number(concurrency) });
}

function addBudget(checks: LimitCheck[], scope: string, row: LimitedRow, timeZone: string, nowMs: number) {
  if (!(row.budget_quota > 0) || !row.budget_period) return;
  const period = budgetPeriodAt(row.budget_period, timeZone, nowMs);
  checks.push({
    kind: 'b',
    key: `${scope}:b:${period.key}`,
    limit: Number(row.budget_quota),
    endsAtMs: period.endsAtMs,
  });
}

/** A token's or a user's own limits (`t:<id>` or `u:<id>`), with the same keys as a call's plan (the console's usage). */
export function ownLimitChecks(scope: string, row: LimitedRow, timeZone: string, nowMs: number): LimitCheck[] {
  const checks: LimitCheck[] = [];
  addRates(checks, scope, row.rpm_limit, row.tpm_limit, row.concurrency_limit);
  addBudget(checks, scope, row, timeZone, nowMs);
  return checks;
}

/**
 * Every limit that applies to a call: the token's, the user's (a limit the user has none of comes from the
 * user's group in GroupLimits), the group's for the model (per user), and the budgets. Undefined, without
 * allocating anything, when none applies: the common case costs three comparisons and a lookup.
 */
export function limitPlanOf(
  context: AppContext,
  token: TokenRow,
  user: UserRow,
  model: string,
): LimitCheck[] | undefined {
  const groups = context.options.json<GroupLimits>('GroupLimits');
  const group = groups[user.group || 'default'];
  if (group === undefined && !limited(token) && !limited(user)) return undefined;
  const checks: LimitCheck[] = [];
  addRates(checks, `t:${token.id}`, token.rpm_limit, token.tpm_limit, token.concurrency_limit);
  addRates(
    checks,
    `u:${user.id}`,
    Number(user.rpm_limit) || group?.rpm_limit,
    Number(user.tpm_limit) || group?.tpm_limit,
    Number(user.concurrency_limit) || group?.concurrency_limit,
  );
  const perModel = group?.models?.[model];
  if (perModel)
    addRates(checks, `u:${user.id}:m:${model}`, perModel.rpm_limit, perModel.tpm_limit, perModel.concurrency_limit);
  const timeZone = context.options.string('TimeZone') || 'UTC';
  const nowMs = Date.now();
  addBudget(checks, `t:${token.id}`, token, timeZone, nowMs);
  addBudget(checks, `u:${user.id}`, user, timeZone, nowMs);
  return checks.length > 0 ? checks : undefined;
}
