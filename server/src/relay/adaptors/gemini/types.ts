/** Gemini (Generative Language API and Vertex AI) wire types. https://ai.google.dev/api/generate-content */

export interface GeminiPart {
  text?: string;
  /** Thinking models mark their reasoning parts. */
  thought?: boolean;
  inlineData?: { mimeType: string; data: string };
  fileData?: { mimeType?: string; fileUri: string };
  functionCall?: { id?: string; name: string; args?: Record<string, unknown> };
  /** A thinking model's signature of the part (a function call's must go back with it). */
  thoughtSignature?: string;
  functionResponse?: { id?: string; name: string; response: Record<string, unknown> };
}

export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
}

export interface GeminiGenerationConfig {
  temperature?: number;
  topP?: number;
  topK?: number;
  maxOutputTokens?: number;
  candidateCount?: number;
  stopSequences?: string[];
  responseMimeType?: string;
  responseSchema?: Record<string, unknown>;
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  /**
   * Gemini 2.5 takes a token budget, Gemini 3 a level (not both); `includeThoughts` returns thought summaries.
   * https://ai.google.dev/gemini-api/docs/thinking
   */
  thinkingConfig?: { thinkingBudget?: number; thinkingLevel?: string; includeThoughts?: boolean };
}

export interface GeminiRequest {
  contents: GeminiContent[];
  systemInstruction?: { parts: GeminiPart[] };
  tools?: { functionDeclarations: GeminiFunctionDeclaration[] }[];
  toolConfig?: { functionCallingConfig: { mode: 'AUTO' | 'ANY' | 'NONE'; allowedFunctionNames?: string[] } };
  safetySettings?: { category: string; threshold: string }[];
  generationConfig?: GeminiGenerationConfig;
}

export interface GeminiCandidate {
  content?: { role?: string; parts?: GeminiPart[] };
  finishReason?: string;
  index?: number;
}

export interface GeminiUsageMetadata {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  totalTokenCount?: number;
  thoughtsTokenCount?: number;
  cachedContentTokenCount?: number;
  /** The prompt of Google's own tools (search results …), billed as input: not part of promptTokenCount. */
  toolUsePromptTokenCount?: number;
  /** The prompt's tokens by modality (TEXT, IMAGE, AUDIO, VIDEO, DOCUMENT), cached ones included. */
  promptTokensDetails?: GeminiModalityTokenCount[];
  /** The cached part's tokens by modality. */
  cacheTokensDetails?: GeminiModalityTokenCount[];
  /** The candidates' tokens by modality (an image or speech model answers IMAGE or AUDIO tokens). */
  candidatesTokensDetails?: GeminiModalityTokenCount[];
}

export interface GeminiModalityTokenCount {
  modality?: string;
  tokenCount?: number;
}

export interface GeminiResponse {
  candidates?: GeminiCandidate[];
  promptFeedback?: { blockReason?: string };
  usageMetadata?: GeminiUsageMetadata;
  modelVersion?: string;
  responseId?: string;
}

export interface GeminiEmbeddingRequest {
  requests: { model: string; content: { parts: { text: string }[] }; outputDimensionality?: number }[];
}

/** batchEmbedContents answers `embeddings`, embedContent one `embedding`. */
export interface GeminiEmbeddingResponse {
  embeddings?: { values: number[] }[];
  embedding?: { values: number[] };
}
