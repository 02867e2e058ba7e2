/** Baidu Qianfan (ERNIE v1, "wenxinworkshop") wire types. https://cloud.baidu.com/doc/WENXINWORKSHOP/s/jlil56u11 */

export interface BaiduMessage {
  role: 'user' | 'assistant' | 'function';
  content: string;
  name?: string;
  function_call?: BaiduFunctionCall;
}

export interface BaiduFunctionCall {
  name: string;
  arguments: string;
  thoughts?: string;
}

export interface BaiduChatRequest {
  messages: BaiduMessage[];
  system?: string;
  temperature?: number;
  top_p?: number;
  penalty_score?: number;
  stream: boolean;
  max_output_tokens?: number;
  stop?: string[];
  user_id?: string;
  functions?: Array<{ name: string; description?: string; parameters?: unknown }>;
  disable_search?: boolean;
  enable_citation?: boolean;
}

export interface BaiduUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** Errors come with HTTP 200 and these two fields. */
export interface BaiduErrorFields {
  error_code?: number;
  error_msg?: string;
}

export interface BaiduChatResponse extends BaiduErrorFields {
  id: string;
  object: string;
  created: number;
  result: string;
  is_truncated?: boolean;
  need_clear_history?: boolean;
  finish_reason?: string;
  function_call?: BaiduFunctionCall;
  usage?: BaiduUsage;
}

/** One SSE event: `result` is the increment, `is_end` marks the last one (which has the whole usage). */
export interface BaiduStreamEvent extends BaiduChatResponse {
  sentence_id: number;
  is_end: boolean;
}

export interface BaiduEmbeddingRequest {
  input: string[];
  user_id?: string;
}

export interface BaiduEmbeddingResponse extends BaiduErrorFields {
  id: string;
  object: 'embedding_list';
  created: number;
  data: Array<{ object: 'embedding'; embedding: number[]; index: number }>;
  usage: BaiduUsage;
}

/** `POST /oauth/2.0/token` answer; failures carry `error` and `error_description` instead. */
export interface BaiduTokenResponse {
  access_token?: string;
  expires_in?: number;
  error?: string;
  error_description?: string;
}
