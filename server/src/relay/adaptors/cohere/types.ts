/** Cohere Chat API v1 wire types. https://docs.cohere.com/v1/reference/chat */

export interface CohereToolCall {
  name: string;
  parameters: Record<string, unknown>;
}

export interface CohereChatTurn {
  role: 'USER' | 'CHATBOT' | 'SYSTEM' | 'TOOL';
  message?: string;
  tool_calls?: CohereToolCall[];
  tool_results?: CohereToolResult[];
}

export interface CohereToolResult {
  call: CohereToolCall;
  outputs: Record<string, unknown>[];
}

export interface CohereTool {
  name: string;
  description: string;
  parameter_definitions?: Record<string, { description?: string; type: string; required?: boolean }>;
}

export interface CohereChatRequest {
  model: string;
  message: string;
  preamble?: string;
  chat_history?: CohereChatTurn[];
  stream?: boolean;
  temperature?: number;
  max_tokens?: number;
  p?: number;
  k?: number;
  seed?: number;
  stop_sequences?: string[];
  frequency_penalty?: number;
  presence_penalty?: number;
  connectors?: { id: string }[];
  tools?: CohereTool[];
  tool_results?: CohereToolResult[];
}

export interface CohereTokens {
  input_tokens?: number;
  output_tokens?: number;
}

export interface CohereChatResponse {
  response_id: string;
  text: string;
  generation_id?: string;
  finish_reason?: string;
  tool_calls?: CohereToolCall[];
  meta?: { billed_units?: CohereTokens; tokens?: CohereTokens };
}

/** One NDJSON line of a v1 stream. */
export interface CohereStreamEvent {
  event_type: string;
  is_finished?: boolean;
  text?: string;
  tool_calls?: CohereToolCall[];
  finish_reason?: string;
  response?: CohereChatResponse;
}
