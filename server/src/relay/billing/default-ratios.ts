/**
 * Built-in price ratios, in one-api's units: ratio 1 = US$0.002 per 1K tokens (1 quota per token at
 * 500 000 quota per dollar). Admins override them with the ModelRatio / CompletionRatio / GroupRatio options.
 */
export const defaultModelRatios: Record<string, number> = {
  'gpt-4': 15,
  'gpt-4-32k': 30,
  'gpt-4-turbo': 5,
  'gpt-4o': 2.5,
  'gpt-4o-2024-08-06': 1.25,
  'gpt-4o-mini': 0.075,
  'gpt-3.5-turbo': 0.25,
  'gpt-3.5-turbo-16k': 1.5,
  o1: 7.5,
  'o1-mini': 1.5,
  'o3-mini': 1.5,
  'text-embedding-3-small': 0.01,
  'text-embedding-ada-002': 0.05,
  'text-embedding-3-large': 0.065,
  'text-moderation-latest': 0.1,
  'text-moderation-stable': 0.1,
  'whisper-1': 15,
  'tts-1': 7.5,
  'tts-1-hd': 15,
  'dall-e-2': 10,
  'dall-e-3': 20,
  'claude-3-5-sonnet-20240620': 1.5,
  'claude-3-opus-20240229': 7.5,
  'claude-3-haiku-20240307': 0.125,
  'gemini-1.5-pro': 0.625,
  'deepseek-chat': 0.07,
  'deepseek-reasoner': 0.275,
};

export const defaultCompletionRatios: Record<string, number> = {
  'whisper-1': 0,
  'deepseek-chat': 2,
  'deepseek-reasoner': 3.98,
};

export const defaultGroupRatios: Record<string, number> = { default: 1, vip: 1, svip: 1 };
