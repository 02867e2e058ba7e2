/**
 * OpenAI's Responses API wire shapes the front reads (the client's request items) and writes (the response
 * object, its output items and the streamed events). Only the fields the converters use are typed; the
 * reference is the `openai` package's `resources/responses/responses.d.ts`.
 */

/** A content part of an input message (`input_text`, `input_image`, `input_file`, `output_text`, `refusal` …). */
export type ResponsesContentPart = { type: string; [field: string]: unknown };

/** An item of `input`: a message (with or without `type`), a function call or output, a reasoning item … */
export type ResponsesInputItem = { type?: string; [field: string]: unknown };

/** A tool offered to the model: `function` converts for chat channels; the others are built in to OpenAI. */
export type ResponsesTool = { type: string; name?: string; [field: string]: unknown };

export interface ResponsesRequest {
  model: string;
  input?: string | ResponsesInputItem[];
  instructions?: string | null;
  tools?: ResponsesTool[];
  tool_choice?: string | { type: string; name?: string; mode?: string; [field: string]: unknown };
  text?: { format?: { type: string; name?: string; schema?: Record<string, unknown>; [field: string]: unknown } };
  reasoning?: { effort?: string | null; summary?: string | null } | null;
  max_output_tokens?: number | null;
  temperature?: number | null;
  top_p?: number | null;
  user?: string;
  metadata?: Record<string, string> | null;
  parallel_tool_calls?: boolean | null;
  previous_response_id?: string | null;
  store?: boolean | null;
  stream?: boolean | null;
  background?: boolean | null;
  [field: string]: unknown;
}

export interface ResponsesOutputText {
  type: 'output_text';
  text: string;
  annotations: unknown[];
  logprobs: unknown[];
}

export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

export interface ResponsesOutputMessage {
  type: 'message';
  id: string;
  status: ItemStatus;
  role: 'assistant';
  content: ResponsesOutputText[];
}

export interface ResponsesFunctionCall {
  type: 'function_call';
  id: string;
  call_id: string;
  name: string;
  arguments: string;
  status: ItemStatus;
}

/** The model's reasoning; a chat upstream's `reasoning_content` is given as its summary. */
export interface ResponsesReasoning {
  type: 'reasoning';
  id: string;
  summary: { type: 'summary_text'; text: string }[];
}

export type ResponsesOutputItem = ResponsesOutputMessage | ResponsesFunctionCall | ResponsesReasoning;

export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

export type ResponseStatus = 'completed' | 'failed' | 'in_progress' | 'incomplete';

/** The `response` object, whole or as carried by the lifecycle events. */
export interface ResponsesResponse {
  id: string;
  object: 'response';
  created_at: number;
  status: ResponseStatus;
  error: { code: string; message: string } | null;
  incomplete_details: { reason: 'max_output_tokens' | 'content_filter' } | null;
  instructions: string | null;
  max_output_tokens: number | null;
  model: string;
  output: ResponsesOutputItem[];
  parallel_tool_calls: boolean;
  previous_response_id: string | null;
  reasoning: { effort: string | null; summary: string | null };
  store: boolean;
  temperature: number | null;
  text: { format: { type: string; [field: string]: unknown } };
  tool_choice: unknown;
  tools: ResponsesTool[];
  top_p: number | null;
  truncation: 'disabled';
  usage: ResponsesUsage | null;
  user: string | null;
  metadata: Record<string, string>;
}

/** A streamed event before its `sequence_number` is stamped on. */
export type ResponsesEvent = { type: string; [field: string]: unknown };
