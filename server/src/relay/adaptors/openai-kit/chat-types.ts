/**
 * The OpenAI chat wire shapes our converting adaptors read (the client's request) and write (answers and
 * stream chunks). Only the fields the converters use are typed; anything else rides along untouched.
 */

export interface ChatTextPart {
  type: 'text';
  text: string;
}

export interface ChatImagePart {
  type: 'image_url';
  image_url: { url: string; detail?: string };
}

export type ChatContentPart = ChatTextPart | ChatImagePart | { type: string; [field: string]: unknown };

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool' | 'function';
  content?: string | ChatContentPart[] | null;
  name?: string;
  tool_calls?: ChatToolCall[];
  tool_call_id?: string;
  reasoning_content?: string;
}

export interface ChatFunction {
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
}

export interface ChatTool {
  type: 'function';
  function: ChatFunction;
}

export type ChatToolChoice = 'auto' | 'none' | 'required' | 'any' | { type: 'function'; function: { name: string } };

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  n?: number;
  stop?: string | string[];
  seed?: number;
  frequency_penalty?: number;
  presence_penalty?: number;
  tools?: ChatTool[];
  /** Legacy function calling (before `tools`). */
  functions?: ChatFunction[];
  tool_choice?: ChatToolChoice;
  parallel_tool_calls?: boolean;
  response_format?: {
    type: 'text' | 'json_object' | 'json_schema';
    json_schema?: { name?: string; schema?: Record<string, unknown> };
  };
  user?: string;
  num_ctx?: number;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call';

export interface ChatAnswerMessage {
  role: 'assistant';
  content: string | null;
  reasoning_content?: string;
  tool_calls?: ChatToolCall[];
}

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: {
    index: number;
    message: ChatAnswerMessage;
    logprobs?: null;
    finish_reason: FinishReason | string | null;
  }[];
  usage: ChatUsage;
}

export interface ChatDeltaToolCall {
  index: number;
  id?: string;
  type?: 'function';
  function: { name?: string; arguments: string };
}

export interface ChatDelta {
  role?: 'assistant';
  content?: string | null;
  reasoning_content?: string;
  tool_calls?: ChatDeltaToolCall[];
}

export interface ChatChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: { index: number; delta: ChatDelta; logprobs?: null; finish_reason: FinishReason | string | null }[];
  usage?: ChatUsage | null;
}
