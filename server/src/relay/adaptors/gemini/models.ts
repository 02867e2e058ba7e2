/** Gemini's built-in model list, as one-api has it (chat models and the embedding model). */
export const geminiModels = [
  'gemini-pro',
  'gemini-1.0-pro',
  'gemini-1.5-flash',
  'gemini-1.5-flash-8b',
  'gemini-1.5-pro',
  'gemini-2.0-flash',
  'gemini-2.0-flash-exp',
  'gemini-2.0-flash-lite-preview-02-05',
  'gemini-2.0-pro-exp-02-05',
  'gemini-2.0-flash-thinking-exp',
  'gemini-2.0-flash-thinking-exp-01-21',
  'text-embedding-004',
  'aqa',
] as const;
