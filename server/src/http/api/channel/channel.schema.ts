import { z } from 'zod';
import { joinList, splitList } from '../../../domain/channel/channel-abilities.js';
import { channelLimits, defaultChannelGroup } from '../../../domain/channel/channel.constants.js';
import { isKnownChannelType } from '../../../domain/channel/channel-type-check.js';
import { idParams, plainName } from '../strict-fields.js';

/** Path and query text that must be a whole decimal number: `1e3`, `0x10`, `1.5` or `1; drop` are refused. */
const integerText = z
  .string()
  .trim()
  .regex(/^-?\d{1,15}$/, 'must be an integer')
  .transform(Number);

export const channelIdParam = idParams;

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

/** Every editable channel field with its rule; counters (balance, used_quota, test results) are not editable. */
const channelFields = {
  type: z.number().int().refine(isKnownChannelType, 'unknown channel type'),
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
export type CreateChannelBody = z.infer<typeof createChannelBody>;

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
export type UpdateChannelBody = z.infer<typeof updateChannelBody>;

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
export type PatchChannelBody = z.infer<typeof patchChannelBody>;

/** The keys of a quick change; a body with any other key is a full update. */
export const patchKeys: ReadonlySet<string> = new Set(['id', 'status', 'priority', 'weight']);
