import { z } from 'zod';
import { maxQuota } from '../../../domain/token/token.constants.js';
import { keywordText, pageNumber } from '../../query-schema.js';
import { idParams, plainName } from '../strict-fields.js';

export { idParams as redemptionIdParam };

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

/** PUT /api/redemption/?status_only=1: only enable (1) and disable (2); "used" is set by redeeming. */
export const redemptionStatusBody = z.object({
  id: z.number().int().positive(),
  status: z.union([z.literal(1), z.literal(2)], { error: 'status must be 1 (enabled) or 2 (disabled)' }),
});

export const statusOnlyQuery = z.object({ status_only: z.string().optional() });

/** POST /api/user/topup */
export const topUpBody = z.object({ key: z.string().max(64, 'the code is too long').default('') });
