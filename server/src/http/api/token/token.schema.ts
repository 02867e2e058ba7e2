import { z } from 'zod';
import { maxQuota, NeverExpires } from '../../../domain/token/token.constants.js';
import { keywordText, pageNumber } from '../../query-schema.js';
import { idParams, plainName } from '../strict-fields.js';

export { idParams as tokenIdParam };

export const tokenListQuery = z.object({
  p: pageNumber,
  order: z
    .string()
    .optional()
    .transform((order) => (order === 'remain_quota' || order === 'used_quota' ? order : 'id')),
});

export const tokenSearchQuery = z.object({ keyword: keywordText });

/** Models arrive comma-joined from the console; scripts may send an array. */
const models = z
  .union([z.string().max(8192, 'the model list is too long'), z.array(z.string().max(191)).max(1000)])
  .nullable()
  .transform((value) => (Array.isArray(value) ? value.join(',') : value));

/** Stored in a varchar(191) column on MySQL. */
const subnet = z.string().max(191, 'the subnet list is too long').nullable();

// The byte limit on names ("令牌名称过长") is checked in the domain with one-api's message; this only stops
// absurd payloads early.
const fields = {
  name: plainName(z.string().max(1000, 'the name is too long')),
  expired_time: z.number().int().min(NeverExpires, 'must be -1 (never) or a Unix time').max(1e12),
  // Negative values are judged in the domain: meaningless (and kept) on unlimited tokens, refused otherwise.
  remain_quota: z.number().int().min(-maxQuota).max(maxQuota),
  unlimited_quota: z.boolean(),
  models,
  subnet,
};

export const createTokenBody = z.object({
  name: fields.name.default(''),
  expired_time: fields.expired_time.default(NeverExpires),
  remain_quota: fields.remain_quota.default(0),
  unlimited_quota: fields.unlimited_quota.default(false),
  models: fields.models.default(''),
  subnet: fields.subnet.default(''),
});

/** A full update: every field optional, an omitted one keeps its stored value. Unknown keys are ignored. */
export const updateTokenBody = z.object({
  id: z.number().int().positive(),
  name: fields.name.optional(),
  expired_time: fields.expired_time.optional(),
  remain_quota: fields.remain_quota.optional(),
  unlimited_quota: fields.unlimited_quota.optional(),
  models: fields.models.optional(),
  subnet: fields.subnet.optional(),
});

/** PUT /api/token/?status_only=1: users may only enable (1) or disable (2). */
export const tokenStatusBody = z.object({
  id: z.number().int().positive(),
  status: z.union([z.literal(1), z.literal(2)], { error: 'status must be 1 (enabled) or 2 (disabled)' }),
});

export const statusOnlyQuery = z.object({ status_only: z.string().optional() });

export type CreateTokenBody = z.infer<typeof createTokenBody>;
export type UpdateTokenBody = z.infer<typeof updateTokenBody>;
