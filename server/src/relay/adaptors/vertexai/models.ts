/** Vertex AI's built-in model list, as one-api has it: Gemini (publisher google) and Claude (publisher anthropic). */
export const vertexGeminiModels = [
  'gemini-pro',
  'gemini-pro-vision',
  'gemini-1.5-pro-001',
  'gemini-1.5-flash-001',
  'gemini-1.5-pro-002',
  'gemini-1.5-flash-002',
  'gemini-2.0-flash-exp',
  'gemini-2.0-flash-001',
  'gemini-2.0-pro-exp-02-05',
  'gemini-2.0-flash-thinking-exp-01-21',
  'text-embedding-004',
  'text-multilingual-embedding-002',
] as const;

export const vertexClaudeModels = [
  'claude-3-haiku@20240307',
  'claude-3-sonnet@20240229',
  'claude-3-opus@20240229',
  'claude-3-5-sonnet@20240620',
  'claude-3-5-sonnet-v2@20241022',
  'claude-3-5-haiku@20241022',
  'claude-3-7-sonnet@20250219',
] as const;

export const vertexModels = [...vertexGeminiModels, ...vertexClaudeModels] as const;

/** Claude models live under publisher `anthropic` (one-api wrongly used `google`). */
export const isVertexClaude = (model: string) => model.startsWith('claude');
