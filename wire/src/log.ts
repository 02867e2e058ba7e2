import { z } from 'zod';
import { keywordText, optionalIntegerText, pageNumber, timestampText } from './fields.js';

const name = z.string().trim().max(191, 'too long').optional();
const nonNegative = optionalIntegerText.pipe(z.number().int().min(0, 'must not be negative').optional());

/**
 * A time filter bound. one-api's console sends `NaN` once a date is cleared (one-api then reads 0, no
 * bound): that reads as absent here too; any other text that is not a whole number is still refused.
 */
const timeBound = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === 'NaN' ? undefined : value),
  timestampText,
);

/** The filters of the log views, as query strings; unknown keys are ignored. */
export const logFilterQuery = z.object({
  type: nonNegative,
  /** Not in one-api: leaves out the logs of this type (the console's 'hide test logs' sends 5). */
  exclude_type: nonNegative,
  start_timestamp: timeBound,
  end_timestamp: timeBound,
  username: name,
  token_name: name,
  model_name: name,
  channel: nonNegative,
});

const rowId = optionalIntegerText.pipe(z.number().int().min(1, 'must be a positive id').optional());

/**
 * A page of the list: one-api's `p` (0-based page number), or a keyset cursor, which wins over `p`:
 * `before_id` (the last id of the page above: the next, older page) or `after_id` (the first id of the page
 * below: the previous, newer page). Both at once are refused.
 */
export const logListQuery = logFilterQuery
  .extend({
    p: pageNumber,
    before_id: rowId,
    after_id: rowId,
    /** Not in one-api: `1` answers the oldest page (the pager's jump to the end), ahead of any cursor. */
    last: z.enum(['0', '1']).optional(),
  })
  .refine((query) => query.before_id === undefined || query.after_id === undefined, {
    message: 'before_id and after_id cannot be combined',
    path: ['after_id'],
  });

/** The viewer's offset from UTC in seconds (UTC+8 → 28800), at most 14 hours either way. */
const utcOffsetText = optionalIntegerText.pipe(
  z
    .number()
    .int()
    .min(-14 * 3600)
    .max(14 * 3600)
    .optional(),
);

/** The CSV export: the list's filters, and the viewer's offset from UTC (seconds) for the time column. */
export const logExportQuery = logFilterQuery.extend({
  utc_offset: utcOffsetText,
});

export const logSearchQuery = z.object({ keyword: keywordText });

/** DELETE /api/log/?target_timestamp=: logs older than this go. */
export const logDeleteQuery = z.object({ target_timestamp: timestampText });

export const logSeriesQuery = logFilterQuery.extend({
  granularity: z.enum(['hour', 'day']).default('day'),
  /** The viewer's offset from UTC in seconds (UTC+8 → 28800), so that day buckets start at local midnight. */
  utc_offset: utcOffsetText,
});

export type LogFilterQuery = z.infer<typeof logFilterQuery>;
export type LogListQuery = z.infer<typeof logListQuery>;

/**
 * The log object of the management API; `channel` carries channel_id, as one-api names it. `other` is
 * new-api's field: JSON text, for a consume log `{"receipt": …}` (the charge line by line, the hold and the
 * refund), '' when the log has none.
 */
export const log = z.object({
  id: z.number(),
  user_id: z.number(),
  created_at: z.number(),
  type: z.number(),
  content: z.string(),
  username: z.string(),
  token_name: z.string(),
  model_name: z.string(),
  quota: z.number(),
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  channel: z.number(),
  request_id: z.string(),
  elapsed_time: z.number(),
  is_stream: z.boolean(),
  system_prompt_reset: z.boolean(),
  other: z.string(),
});

/** GET /api/log/stat: the consumption of the filtered logs; `token` counts prompt and completion tokens. */
export const logStat = z.object({ quota: z.number(), token: z.number() });

/**
 * GET /api/log/count (not in one-api): how many logs match. `exact` is false when the count stopped at its
 * cap (then `total` is a lower bound).
 */
export const logCount = z.object({ total: z.number(), exact: z.boolean() });

/** One point of the usage chart: the consumption of one model in one time bucket. */
export const usagePoint = z.object({
  /** Start of the bucket, Unix seconds. */
  time: z.number(),
  model_name: z.string(),
  quota: z.number(),
  requests: z.number(),
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
});
export type UsagePoint = z.infer<typeof usagePoint>;
