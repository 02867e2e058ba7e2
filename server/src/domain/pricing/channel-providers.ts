import { ChannelType } from '../channel/channel.constants.js';

/**
 * Where the catalogue looks up a channel type's models: the providers whose list prices that type's vendor
 * charges, in order. Ids are @pydantic/genai-prices' provider ids, or the hand-kept supplement's provider
 * keys (catalogue-supplement.json) for the vendors it lacks. Types that relay the OpenAI protocol for any
 * vendor's models (proxies, custom base URLs) also look the model name up across every vendor.
 */
const providersByType: Partial<Record<number, readonly string[]>> = {
  [ChannelType.OpenAI]: ['openai'],
  [ChannelType.Azure]: ['azure', 'openai'],
  [ChannelType.Anthropic]: ['anthropic'],
  [ChannelType.AwsClaude]: ['aws'],
  [ChannelType.Gemini]: ['google'],
  [ChannelType.GeminiOpenAICompatible]: ['google'],
  [ChannelType.PaLM]: ['google'],
  [ChannelType.VertexAI]: ['google', 'anthropic'],
  [ChannelType.Moonshot]: ['moonshotai'],
  [ChannelType.Mistral]: ['mistral'],
  [ChannelType.Groq]: ['groq'],
  [ChannelType.DeepSeek]: ['deepseek'],
  [ChannelType.TogetherAI]: ['together'],
  [ChannelType.XAI]: ['x-ai'],
  [ChannelType.Cohere]: ['cohere'],
  [ChannelType.Cloudflare]: ['cloudflare'],
  [ChannelType.Novita]: ['novita'],
  [ChannelType.OpenRouter]: ['openrouter'],
  [ChannelType.Minimax]: ['minimax'],
  [ChannelType.Zhipu]: ['zhipuai', 'zai'],
  [ChannelType.Ali]: ['alibaba'],
  [ChannelType.AliBailian]: ['alibaba'],
  [ChannelType.Baidu]: ['baidu'],
  [ChannelType.BaiduV2]: ['baidu'],
  [ChannelType.Tencent]: ['tencent'],
  [ChannelType.Doubao]: ['bytedance'],
  [ChannelType.Xunfei]: ['iflytek'],
  [ChannelType.XunfeiV2]: ['iflytek'],
  [ChannelType.AI360]: ['360'],
  [ChannelType.Baichuan]: ['baichuan'],
  [ChannelType.LingYiWanWu]: ['01ai'],
  [ChannelType.StepFun]: ['stepfun'],
  [ChannelType.SiliconFlow]: ['siliconflow'],
};

/** OpenAI-protocol relays of any vendor's models: priced as the vendor the model name belongs to. */
const anyVendorTypes = new Set<number>([
  ChannelType.OpenAI,
  ChannelType.API2D,
  ChannelType.Azure,
  ChannelType.CloseAI,
  ChannelType.OpenAISB,
  ChannelType.OpenAIMax,
  ChannelType.OhMyGPT,
  ChannelType.Custom,
  ChannelType.Ails,
  ChannelType.AIProxy,
  ChannelType.API2GPT,
  ChannelType.AIGC2D,
  ChannelType.FastGPT,
  ChannelType.OpenAICompatible,
]);

export const providersOf = (channelType: number): readonly string[] => providersByType[channelType] ?? [];

export const pricedByModelName = (channelType: number): boolean => anyVendorTypes.has(channelType);
