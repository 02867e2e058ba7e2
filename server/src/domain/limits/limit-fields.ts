import type { TokenRow, UserRow } from '../../db/tables.js';
import { AppError } from '../../lib/errors.js';

/** The limit and budget columns of a token or a user (issue 31), each 0 = none. */
export interface LimitFields {
  rpm_limit: number;
  tpm_limit: number;
  concurrency_limit: number;
  budget_quota: number;
  budget_period: string;
}

export const rateLimitNames = ['rpm_limit', 'tpm_limit', 'concurrency_limit'] as const;

/** The row's limits as numbers (PostgreSQL answers bigint as text; a row read before the migration has none). */
export const limitFieldsOf = (row: TokenRow | UserRow): LimitFields => ({
  rpm_limit: Number(row.rpm_limit ?? 0),
  tpm_limit: Number(row.tpm_limit ?? 0),
  concurrency_limit: Number(row.concurrency_limit ?? 0),
  budget_quota: Number(row.budget_quota ?? 0),
  budget_period: row.budget_period ?? '',
});

const refuse = (code: string, zh: string, en: string) =>
  new AppError(code, { zh: `参数错误：${zh}`, en: `invalid parameter: ${en}` });

/**
 * Checks an edit of the limits against what is stored: a budget needs its period (and a period its budget),
 * and a token's limits stay within its owner's (`owner`), which apply anyway. Answers the columns to write.
 */
export function checkLimitChanges(
  changes: Partial<LimitFields>,
  stored: LimitFields | undefined,
  owner?: LimitFields,
): Partial<LimitFields> {
  const merged = { ...(stored ?? limitFieldsOf({} as TokenRow)), ...changes };
  if (merged.budget_quota > 0 && merged.budget_period === '')
    throw refuse(
      'budget_period_missing',
      '设置预算 budget_quota 时须选择周期 budget_period（day、week 或 month）',
      'a budget_quota needs a budget_period (day, week or month)',
    );
  if (owner) {
    for (const name of rateLimitNames) {
      const cap = owner[name];
      if (cap > 0 && merged[name] > cap)
        throw refuse(
          'token_limit_above_user',
          `令牌的 ${name}（${merged[name]}）不能超过用户的限制（${cap}）`,
          `the token's ${name} (${merged[name]}) cannot exceed its user's (${cap})`,
        );
    }
  }
  return pickLimitChanges(changes);
}

/** The limits of a picked body (the wire's optional fields), without the others. */
export function pickLimitChanges(fields: Partial<LimitFields>): Partial<LimitFields> {
  const picked: Partial<LimitFields> = {};
  for (const name of [...rateLimitNames, 'budget_quota'] as const)
    if (fields[name] !== undefined) picked[name] = fields[name];
  if (fields.budget_period !== undefined) picked.budget_period = fields.budget_period;
  return picked;
}
