import { z } from 'zod';

/** Issue 31: the periods a budget resets on, at the boundary in the operator's time zone. */
export const budgetPeriods = ['day', 'week', 'month'] as const;
export type BudgetPeriod = (typeof budgetPeriods)[number];

/** Far above any real rate, safely inside a Redis integer and a double. */
export const maxLimit = 1_000_000_000_000;

const limit = (name: string) =>
  z
    .number({ message: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(0, `${name} must be 0 (none) or more`)
    .max(maxLimit, `${name} is too large`);

/** The limit and budget fields of tokens and users, each 0 = none; the period '' = no budget. */
export const limitFields = {
  rpm_limit: limit('rpm_limit'),
  tpm_limit: limit('tpm_limit'),
  concurrency_limit: limit('concurrency_limit'),
  budget_quota: limit('budget_quota'),
  budget_period: z.union([z.literal(''), z.enum(budgetPeriods)], {
    message: 'budget_period must be day, week, month or empty',
  }),
};

/** The same fields, each optional (an omitted one keeps its stored value). */
export const optionalLimitFields = {
  rpm_limit: limitFields.rpm_limit.optional(),
  tpm_limit: limitFields.tpm_limit.optional(),
  concurrency_limit: limitFields.concurrency_limit.optional(),
  budget_quota: limitFields.budget_quota.optional(),
  budget_period: limitFields.budget_period.optional(),
};

/** As the API answers them. */
export const limitAnswer = {
  rpm_limit: z.number(),
  tpm_limit: z.number(),
  concurrency_limit: z.number(),
  budget_quota: z.number(),
  budget_period: z.string(),
};

/** One group's defaults in the GroupLimits option, and per model within the group. */
const groupLimit = z
  .object({
    rpm_limit: limitFields.rpm_limit.optional(),
    tpm_limit: limitFields.tpm_limit.optional(),
    concurrency_limit: limitFields.concurrency_limit.optional(),
  })
  .strict();
export const groupLimits = z.record(
  z.string(),
  groupLimit.extend({ models: z.record(z.string(), groupLimit).optional() }).strict(),
);
export type GroupLimits = z.infer<typeof groupLimits>;

/** GET /api/token/limits_usage: the caller's tokens by id, comma-separated (at most 100). */
export const limitsUsageQuery = z.object({
  ids: z
    .string({ message: 'ids must be token ids separated by commas' })
    .regex(/^\d+(,\d+)*$/, 'ids must be token ids separated by commas')
    .transform((text) => [...new Set(text.split(',').map(Number))])
    .refine((ids) => ids.length <= 100, 'ids may name at most 100 tokens'),
});

/** One rate limit's current use: `limit` 0 = none (then `used` is 0). */
const limitUse = z.object({ used: z.number(), limit: z.number() });

/** A budget's spend in its current period (holds of calls in flight included); null when none is set. */
export const budgetUse = z
  .object({
    spent: z.number(),
    quota: z.number(),
    period: z.enum(budgetPeriods),
    /** Unix seconds at which the period ends and the spend starts again from 0. */
    resets_at: z.number(),
  })
  .nullable();
export type BudgetUse = z.infer<typeof budgetUse>;

/** What a token or a user uses now of each of its own limits (issue 31's console). */
export const limitsUsage = z.object({ rpm: limitUse, tpm: limitUse, concurrency: limitUse, budget: budgetUse });
export type LimitsUsage = z.infer<typeof limitsUsage>;

/** Per token id (as text) that the caller owns; ids of other users' tokens are left out. */
export const tokenLimitsUsage = z.record(z.string(), limitsUsage);
export type TokenLimitsUsage = z.infer<typeof tokenLimitsUsage>;
