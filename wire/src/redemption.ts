import { z } from 'zod';
import { keywordText, pageNumber, plainName } from './fields.js';
import { maxQuota } from './token.js';

export const redemptionListQuery = z.object({ p: pageNumber });

export const redemptionSearchQuery = z.object({ keyword: keywordText });

// Lengths and ranges get one-api's own messages in the domain; these bounds only stop absurd payloads.
const name = plainName(z.string().max(200, 'the name is too long'));
const quota = z.number().int().min(0, 'must not be negative').max(maxQuota);

export const createRedemptionBody = z.object({
  name,
  quota: quota.default(0),
  count: z.number().int().min(-1000).max(1000).default(1),
});

export const updateRedemptionBody = z.object({
  id: z.number().int().positive(),
  name: name.optional(),
  quota: quota.optional(),
});

/** POST /api/user/topup: redeems a code. */
export const topUpBody = z.object({ key: z.string().max(64, 'the code is too long').default('') });

/** The redemption object of the management API (admin only: it carries the code itself). */
export const redemption = z.object({
  id: z.number(),
  user_id: z.number(),
  key: z.string(),
  status: z.number(),
  name: z.string(),
  quota: z.number(),
  created_time: z.number(),
  redeemed_time: z.number(),
  /** Who redeemed it (0 while unused); one-api did not record this. */
  used_user_id: z.number(),
  /** A request-only field in one-api, always 0 in answers. */
  count: z.number(),
});
