/**
 * The channel type enumeration of spec section 3, in the spec's order. Labels live in the locale files under
 * `channel.type.<id>`; the colour is an antd preset colour for the type's tag.
 */
export const CHANNEL_TYPES: ReadonlyArray<{ id: number; color: string }> = [
  { id: 1, color: 'green' },
  { id: 14, color: 'black' },
  { id: 33, color: 'black' },
  { id: 3, color: 'olive' },
  { id: 11, color: 'orange' },
  { id: 24, color: 'orange' },
  { id: 28, color: 'orange' },
  { id: 41, color: 'purple' },
  { id: 40, color: 'blue' },
  { id: 15, color: 'blue' },
  { id: 17, color: 'orange' },
  { id: 18, color: 'blue' },
  { id: 16, color: 'violet' },
  { id: 19, color: 'blue' },
  { id: 25, color: 'black' },
  { id: 23, color: 'teal' },
  { id: 26, color: 'orange' },
  { id: 27, color: 'red' },
  { id: 29, color: 'orange' },
  { id: 30, color: 'black' },
  { id: 31, color: 'green' },
  { id: 32, color: 'blue' },
  { id: 34, color: 'blue' },
  { id: 35, color: 'blue' },
  { id: 36, color: 'black' },
  { id: 37, color: 'orange' },
  { id: 38, color: 'black' },
  { id: 39, color: 'blue' },
  { id: 42, color: 'blue' },
  { id: 43, color: 'blue' },
  { id: 44, color: 'blue' },
  { id: 45, color: 'blue' },
  { id: 8, color: 'pink' },
  { id: 22, color: 'blue' },
  { id: 21, color: 'purple' },
  { id: 20, color: 'black' },
  { id: 2, color: 'blue' },
  { id: 5, color: 'brown' },
  { id: 7, color: 'purple' },
  { id: 10, color: 'purple' },
  { id: 4, color: 'teal' },
  { id: 6, color: 'violet' },
  { id: 9, color: 'yellow' },
  { id: 12, color: 'violet' },
  { id: 13, color: 'purple' },
];

/** antd has no olive, black, violet, teal or brown preset; these map them to close presets. */
const TAG_COLOR: Record<string, string> = {
  olive: 'lime',
  black: 'default',
  violet: 'geekblue',
  teal: 'cyan',
  brown: 'volcano',
};

export const channelTypeColor = (type: number): string => {
  const color = CHANNEL_TYPES.find((entry) => entry.id === type)?.color ?? 'default';
  return TAG_COLOR[color] ?? color;
};

export const isKnownChannelType = (type: number): boolean => CHANNEL_TYPES.some((entry) => entry.id === type);

/** Channel type ids with special form behaviour. */
export const ChannelTypeId = {
  openAI: 1,
  azure: 3,
  custom: 8,
  baidu: 15,
  ali: 17,
  xunfei: 18,
  aiProxyLibrary: 21,
  fastGpt: 22,
  tencent: 23,
  aws: 33,
  coze: 34,
  cloudflare: 37,
  vertexAI: 42,
  proxy: 43,
} as const;

/**
 * Types on the server's OpenAI adaptor, whose channels may take the Responses API natively: their config key
 * `responses_api` says so (decision 0024).
 */
export const RESPONSES_API_TYPES: ReadonlySet<number> = new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 22]);

/** Claude channel types (Anthropic, AWS Bedrock, Vertex AI), whose config may pass or strip `anthropic-beta` flags. */
export const ANTHROPIC_BETA_TYPES: ReadonlySet<number> = new Set([14, 33, 42]);

/** Types whose key packs several parts; the hint tells the layout (spec section 3 of the channel form). */
export const KEY_HINT_TYPES = [15, 18, 22, 23] as const;

/** Azure's default API version, written into `other` when the form leaves it empty. */
export const AZURE_DEFAULT_API_VERSION = '2024-03-01-preview';
