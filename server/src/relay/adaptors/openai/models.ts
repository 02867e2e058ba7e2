/** OpenAI's built-in model list (one-api's order), shown for OpenAI, Azure and the OpenAI resellers. */
export const openAIModels = [
  'gpt-3.5-turbo', 'gpt-3.5-turbo-0301', 'gpt-3.5-turbo-0613', 'gpt-3.5-turbo-1106', 'gpt-3.5-turbo-0125',
  'gpt-3.5-turbo-16k', 'gpt-3.5-turbo-16k-0613', 'gpt-3.5-turbo-instruct',
  'gpt-4', 'gpt-4-0314', 'gpt-4-0613', 'gpt-4-1106-preview', 'gpt-4-0125-preview',
  'gpt-4-32k', 'gpt-4-32k-0314', 'gpt-4-32k-0613',
  'gpt-4-turbo-preview', 'gpt-4-turbo', 'gpt-4-turbo-2024-04-09',
  'gpt-4o', 'gpt-4o-2024-05-13', 'gpt-4o-2024-08-06', 'gpt-4o-2024-11-20', 'chatgpt-4o-latest',
  'gpt-4o-mini', 'gpt-4o-mini-2024-07-18', 'gpt-4-vision-preview',
  'o1', 'o1-2024-12-17', 'o1-preview', 'o1-preview-2024-09-12', 'o1-mini', 'o1-mini-2024-09-12',
  'o3-mini', 'o3-mini-2025-01-31', 'gpt-4.5-preview', 'gpt-4.5-preview-2025-02-27',
  'text-embedding-ada-002', 'text-embedding-3-small', 'text-embedding-3-large',
  'text-curie-001', 'text-babbage-001', 'text-ada-001', 'text-davinci-002', 'text-davinci-003',
  'text-moderation-latest', 'text-moderation-stable', 'omni-moderation-latest', 'text-davinci-edit-001',
  'davinci-002', 'babbage-002',
  'dall-e-2', 'dall-e-3',
  'whisper-1',
  'tts-1', 'tts-1-1106', 'tts-1-hd', 'tts-1-hd-1106',
] as const;
