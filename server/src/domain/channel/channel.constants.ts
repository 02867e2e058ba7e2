/** Channel status, as one-api numbers it. */
export const ChannelStatus = { Unknown: 0, Enabled: 1, ManuallyDisabled: 2, AutoDisabled: 3 } as const;

/** one-api's channel types. The numbers are stored in `channels.type`: never renumber. */
export const ChannelType = {
  Unknown: 0,
  OpenAI: 1,
  API2D: 2,
  Azure: 3,
  CloseAI: 4,
  OpenAISB: 5,
  OpenAIMax: 6,
  OhMyGPT: 7,
  Custom: 8,
  Ails: 9,
  AIProxy: 10,
  PaLM: 11,
  API2GPT: 12,
  AIGC2D: 13,
  Anthropic: 14,
  Baidu: 15,
  Zhipu: 16,
  Ali: 17,
  Xunfei: 18,
  AI360: 19,
  OpenRouter: 20,
  AIProxyLibrary: 21,
  FastGPT: 22,
  Tencent: 23,
  Gemini: 24,
  Moonshot: 25,
  Baichuan: 26,
  Minimax: 27,
  Mistral: 28,
  Groq: 29,
  Ollama: 30,
  LingYiWanWu: 31,
  StepFun: 32,
  AwsClaude: 33,
  Coze: 34,
  Cohere: 35,
  DeepSeek: 36,
  Cloudflare: 37,
  DeepL: 38,
  TogetherAI: 39,
  Doubao: 40,
  Novita: 41,
  VertexAI: 42,
  Proxy: 43,
  SiliconFlow: 44,
  XAI: 45,
  Replicate: 46,
  BaiduV2: 47,
  XunfeiV2: 48,
  AliBailian: 49,
  OpenAICompatible: 50,
  GeminiOpenAICompatible: 51,
} as const;

export type ChannelTypeValue = (typeof ChannelType)[keyof typeof ChannelType];

/** Page size of the channel list (one-api's ItemsPerPage). */
export const channelsPerPage = 10;

/** Most rows a channel search answers (one-api had no cap at all). */
export const maxChannelSearchResults = 100;

/** The model a test uses when none is asked for and the channel lists it (one-api's choice). */
export const defaultTestModel = 'gpt-3.5-turbo';

/** Channel type 43 (Proxy) passes requests through by channel id, so it may list no models. */
export const proxyChannelType = 43;

// Part of the API contract: defined with the wire schemas.
export { channelLimits, defaultChannelGroup } from '@modelgate/wire';
