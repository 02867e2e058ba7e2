import { z } from 'zod';
import { integerText, plainName } from './fields.js';

/** The group a channel serves when none is given. */
export const defaultChannelGroup = 'default';

// Column limits of the schema (varchar(191) on MySQL for indexed strings, varchar(32) for groups,
// varchar(1024) for the model mapping, TEXT = 65 535 bytes, i.e. 16 383 four-byte characters).
export const channelLimits = {
  name: 191,
  baseUrl: 191,
  group: 32,
  modelName: 191,
  modelMapping: 1024,
  text: 16_000,
  /** One key line; a Vertex service-account JSON is about 2.5 KB. */
  key: 16_000,
  /** Channels created by one batch request. */
  batchSize: 500,
} as const;

/** Splits a comma-separated list (models, groups): items trimmed, empty ones dropped, duplicates removed. */
export function splitList(text: string | null | undefined): string[] {
  const items = (text ?? '').split(',').map((item) => item.trim());
  return [...new Set(items.filter((item) => item !== ''))];
}

/** A list as stored in a channel row: the cleaned items joined by commas. */
export const joinList = (items: readonly string[]) => items.join(',');

export const channelListQuery = z.object({
  p: integerText.optional().transform((page) => Math.max(page ?? 0, 0)),
  type: integerText.optional(),
  status: integerText.optional(),
});

export const channelSearchQuery = z.object({
  keyword: z.string().trim().max(channelLimits.name, 'the keyword is too long').default(''),
});

export const channelTestQuery = z.object({
  model: z.string().trim().max(channelLimits.modelName, 'the model name is too long').default(''),
});

export const bulkTestQuery = z.object({
  scope: z.enum(['all', 'disabled']).default('all'),
});

const isJsonObject = (text: string) => {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
};

/** A comma-separated list, or an array from scripts: cleaned and stored as one comma-joined string. */
const listField = (itemMax: number, what: string) =>
  z
    .union([z.string().max(channelLimits.text, `${what} is too long`), z.array(z.string()).max(2000)])
    .transform((value) => splitList(Array.isArray(value) ? value.join(',') : value))
    .refine(
      (items) => items.every((item) => item.length <= itemMax),
      `each ${what} entry must be at most ${itemMax} characters`,
    )
    .transform(joinList);

const modelMappingField = z
  .string()
  .trim()
  .max(channelLimits.modelMapping, 'model_mapping is too long')
  .refine((text) => {
    if (text === '') return true;
    if (!isJsonObject(text)) return false;
    return Object.values(JSON.parse(text) as Record<string, unknown>).every((value) => typeof value === 'string');
  }, 'model_mapping must be a JSON object mapping model names to model names');

const baseUrlField = z
  .string()
  .trim()
  .max(channelLimits.baseUrl, 'base_url is too long')
  .transform((url) => url.replace(/\/+$/, ''))
  .refine(
    (url) => url === '' || (/^https?:\/\/[^\s/]+/i.test(url) && URL.canParse(url)),
    'base_url must be an http(s) URL',
  );

/** `config` is a JSON object in a string (region, ak, sk, user_id, api_version …); scripts may send the object. */
const configField = z
  .union([z.string().max(channelLimits.text, 'config is too long'), z.record(z.string(), z.unknown())])
  .transform((value) => (typeof value === 'string' ? value.trim() : JSON.stringify(value)))
  .refine((text) => text === '' || isJsonObject(text), 'config must be a JSON object')
  .refine((text) => text.length <= channelLimits.text, 'config is too long');

/** one-api keeps these columns as nullable pointers and scripts send `null` for "empty": read it so. */
const nullAs = <T extends z.ZodType>(empty: string | number, schema: T) =>
  z.preprocess((value) => (value === null ? empty : value), schema);

/**
 * Every editable channel field with its rule; counters (balance, used_quota, test results) are not editable.
 * `type` is only an integer here: the server adds the check against its registry of channel types.
 */
const channelFields = {
  type: z.number().int(),
  key: z.string().max(channelLimits.key * 50, 'key is too long'),
  name: plainName(z.string().trim().min(1, 'name is required').max(channelLimits.name, 'name is too long')),
  base_url: nullAs('', baseUrlField),
  other: nullAs('', z.string().max(channelLimits.text, 'other is too long')),
  model_mapping: nullAs('', modelMappingField),
  system_prompt: nullAs('', z.string().max(channelLimits.text, 'system_prompt is too long')),
  models: listField(channelLimits.modelName, 'model'),
  group: listField(channelLimits.group, 'group').refine(
    (groups) => groups.length <= channelLimits.group,
    `group must be at most ${channelLimits.group} characters in all`,
  ),
  config: nullAs('', configField),
  priority: nullAs(0, z.number().int().min(-2_147_483_648).max(2_147_483_647)),
  weight: nullAs(0, z.number().int().min(0, 'weight must not be negative').max(2_147_483_647)),
  status: z.union([z.literal(1), z.literal(2), z.literal(3)]),
};

/** POST /api/channel/: one channel per non-empty key line. */
export const createChannelBody = z.object({
  type: channelFields.type,
  key: channelFields.key,
  name: channelFields.name,
  base_url: channelFields.base_url.default(''),
  other: channelFields.other.default(''),
  model_mapping: channelFields.model_mapping.default(''),
  system_prompt: channelFields.system_prompt.default(''),
  models: channelFields.models.default(''),
  group: channelFields.group.default(defaultChannelGroup),
  config: channelFields.config.default(''),
  priority: channelFields.priority.default(0),
  weight: channelFields.weight.default(0),
  status: channelFields.status.default(1),
});

/** PUT /api/channel/ with the whole form: fields left out keep their value, an empty key keeps the old key. */
export const updateChannelBody = z.object({
  id: z.number().int().positive('must be a positive id'),
  type: channelFields.type.optional(),
  key: channelFields.key.optional(),
  name: channelFields.name.optional(),
  base_url: channelFields.base_url.optional(),
  other: channelFields.other.optional(),
  model_mapping: channelFields.model_mapping.optional(),
  system_prompt: channelFields.system_prompt.optional(),
  models: channelFields.models.optional(),
  group: channelFields.group.optional(),
  config: channelFields.config.optional(),
  priority: channelFields.priority.optional(),
  weight: channelFields.weight.optional(),
  status: channelFields.status.optional(),
});

/** PUT /api/channel/ from the list's switches: the id plus status (1 or 2), priority or weight. */
export const patchChannelBody = z
  .object({
    id: z.number().int().positive('must be a positive id'),
    status: z.union([z.literal(1), z.literal(2)]).optional(),
    priority: channelFields.priority.optional(),
    weight: channelFields.weight.optional(),
  })
  .refine(
    (body) => body.status !== undefined || body.priority !== undefined || body.weight !== undefined,
    'nothing to change',
  );

/** The keys of a quick change; a body with any other key is a full update. */
export const patchKeys: ReadonlySet<string> = new Set(['id', 'status', 'priority', 'weight']);

/** The channel object of the management API; `key` is write-only and always blank in answers. */
export const channel = z.object({
  id: z.number(),
  type: z.number(),
  key: z.string(),
  status: z.number(),
  name: z.string(),
  weight: z.number(),
  created_time: z.number(),
  test_time: z.number(),
  response_time: z.number(),
  base_url: z.string(),
  other: z.string(),
  balance: z.number(),
  balance_updated_time: z.number(),
  models: z.string(),
  group: z.string(),
  used_quota: z.number(),
  model_mapping: z.string(),
  priority: z.number(),
  config: z.string(),
  system_prompt: z.string(),
});

/** GET /api/channel/test/:id, in one-api's shape: the reply (or error) in `message`, `time` in seconds. */
export const channelTestAnswer = z.object({
  success: z.boolean(),
  message: z.string(),
  time: z.number(),
  model: z.string(),
  modelName: z.string(),
});

/** GET /api/channel/update_balance/:id, in one-api's shape: `balance` at the top level. */
export const balanceAnswer = z.object({ success: z.boolean(), message: z.string(), balance: z.number() });

/** GET /api/channel/models: every built-in model as an OpenAI model list (no envelope, as in one-api). */
export const openAIModelList = z.object({
  object: z.literal('list'),
  data: z.array(
    z.looseObject({ id: z.string(), object: z.literal('model'), created: z.number(), owned_by: z.string() }),
  ),
});
