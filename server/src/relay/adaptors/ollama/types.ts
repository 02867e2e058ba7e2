/** Ollama native API wire types. https://github.com/ollama/ollama/blob/main/docs/api.md */

export interface OllamaToolCall {
  function: { name: string; arguments: Record<string, unknown> };
}

export interface OllamaMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** Base64 images without a data: prefix. */
  images?: string[];
  tool_calls?: OllamaToolCall[];
  thinking?: string;
}

export interface OllamaOptions {
  seed?: number;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  frequency_penalty?: number;
  presence_penalty?: number;
  num_predict?: number;
  num_ctx?: number;
  stop?: string[];
}

export interface OllamaChatRequest {
  model: string;
  messages: OllamaMessage[];
  stream: boolean;
  options?: OllamaOptions;
  tools?: {
    type: 'function';
    function: { name: string; description?: string; parameters?: Record<string, unknown> };
  }[];
  format?: 'json' | Record<string, unknown>;
}

/** A whole answer, or one NDJSON stream line (the last one has done:true and the counts). */
export interface OllamaChatResponse {
  model: string;
  created_at: string;
  message?: OllamaMessage;
  done: boolean;
  done_reason?: string;
  prompt_eval_count?: number;
  eval_count?: number;
  error?: string;
}

export interface OllamaEmbedRequest {
  model: string;
  input: string[];
}

export interface OllamaEmbedResponse {
  model: string;
  embeddings: number[][];
  prompt_eval_count?: number;
}
