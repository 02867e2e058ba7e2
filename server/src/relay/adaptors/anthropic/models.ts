/** Anthropic's built-in model list, as one-api has it. */
export const anthropicModels = [
  'claude-instant-1.2',
  'claude-2.0',
  'claude-2.1',
  'claude-3-haiku-20240307',
  'claude-3-5-haiku-20241022',
  'claude-3-5-haiku-latest',
  'claude-3-sonnet-20240229',
  'claude-3-opus-20240229',
  'claude-3-5-sonnet-20240620',
  'claude-3-5-sonnet-20241022',
  'claude-3-5-sonnet-latest',
  'claude-3-7-sonnet-20250219',
  'claude-3-7-sonnet-latest',
] as const;
