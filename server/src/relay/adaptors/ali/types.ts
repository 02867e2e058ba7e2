/** Alibaba DashScope native API wire types. https://help.aliyun.com/zh/model-studio/developer-reference/use-qwen-by-calling-api */

export interface AliToolCall {
  index?: number;
  id?: string;
  type?: 'function';
  function: { name?: string; arguments?: string };
}

/** A part of a multimodal (qwen-vl) message. */
export type AliContentPart = { text: string } | { image: string };

export interface AliMessage {
  role: string;
  /** Text; multimodal models take and answer a list of parts. */
  content: string | AliContentPart[];
  name?: string;
  tool_calls?: AliToolCall[];
  tool_call_id?: string;
}

export interface AliChatRequest {
  model: string;
  input: { messages: AliMessage[] };
  parameters: {
    result_format: 'message';
    incremental_output?: boolean;
    max_tokens?: number;
    temperature?: number;
    top_p?: number;
    top_k?: number;
    seed?: number;
    stop?: string | string[];
    enable_search?: boolean;
    repetition_penalty?: number;
    tools?: unknown[];
    tool_choice?: unknown;
  };
}

export interface AliUsage {
  input_tokens?: number;
  output_tokens?: number;
  total_tokens?: number;
  /** Cache reads and writes, in OpenAI's words (read by promptDetailsParts). */
  prompt_tokens_details?: unknown;
  output_tokens_details?: { reasoning_tokens?: number };
}

/** Failures: `{code, message, request_id}` with a 4xx/5xx status (or an `event:error` in a stream). */
export interface AliErrorFields {
  code?: string;
  message?: string;
  request_id?: string;
}

export interface AliChatResponse extends AliErrorFields {
  output?: {
    /** `result_format: text` answers carry only `text` and `finish_reason`. */
    text?: string;
    finish_reason?: string;
    choices?: Array<{ finish_reason?: string; message?: Partial<AliMessage> & { reasoning_content?: string } }>;
  };
  usage?: AliUsage;
}

export interface AliEmbeddingRequest {
  model: string;
  input: { texts: string[] };
  parameters: { text_type: 'query' | 'document' };
}

export interface AliEmbeddingResponse extends AliErrorFields {
  output?: { embeddings: Array<{ text_index: number; embedding: number[] }> };
  usage?: AliUsage;
}

export interface AliImageRequest {
  model: string;
  input: { prompt: string; negative_prompt?: string };
  parameters: { size?: string; n?: number; style?: string };
}

export type AliTaskStatus = 'PENDING' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELED' | 'UNKNOWN' | 'SUSPENDED';

export interface AliTaskResponse extends AliErrorFields {
  output?: {
    task_id: string;
    task_status: AliTaskStatus;
    code?: string;
    message?: string;
    results?: Array<{ url?: string; b64_image?: string; code?: string; message?: string }>;
    task_metrics?: { TOTAL: number; SUCCEEDED: number; FAILED: number };
  };
  usage?: { image_count?: number };
}
