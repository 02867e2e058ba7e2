import { z } from 'zod';
import { keywordText, pageNumber, plainName } from './fields.js';
import { limitAnswer, optionalLimitFields } from './limits.js';

/** `expired_time` of a token that never expires. */
export const NeverExpires = -1;

/** Largest quota a token or code may carry: far above any real balance, safely below 2^53. */
export const maxQuota = 1_000_000_000_000_000;

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
  ...optionalLimitFields,
});

/** A full update: every field optional, an omitted one keeps its stored value. Unknown keys are ignored. */
export const updateTokenBody = z.object({
  id: z.number().int().positive(),
  name: fields.name.optional(),
  expired_time: fields.expired_time.optional(),
  remain_quota: fields.remain_quota.optional(),
  /**
   * The remaining quota the edit page loaded: the server then adds `remain_quota − original_remain_quota`
   * to the token as it is now, keeping the charges made since. Without it the value is overwritten.
   */
  original_remain_quota: fields.remain_quota.optional(),
  unlimited_quota: fields.unlimited_quota.optional(),
  models: fields.models.optional(),
  subnet: fields.subnet.optional(),
  ...optionalLimitFields,
});

export type CreateTokenBody = z.infer<typeof createTokenBody>;
export type UpdateTokenBody = z.infer<typeof updateTokenBody>;

/** The token object of the management API (one-api's keys, `unlimited_quota` as a boolean). */
export const token = z.object({
  id: z.number(),
  user_id: z.number(),
  key: z.string(),
  status: z.number(),
  name: z.string(),
  created_time: z.number(),
  accessed_time: z.number(),
  expired_time: z.number(),
  remain_quota: z.number(),
  unlimited_quota: z.boolean(),
  used_quota: z.number(),
  models: z.string().nullable(),
  subnet: z.string().nullable(),
  ...limitAnswer,
});
