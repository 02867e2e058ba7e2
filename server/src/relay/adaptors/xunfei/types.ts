/** iFlytek Spark WebSocket wire types. https://www.xfyun.cn/doc/spark/Web.html */

export interface SparkMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface SparkFunction {
  name: string;
  description?: string;
  parameters?: unknown;
}

/** The one text frame the client sends after the handshake. */
export interface SparkRequest {
  header: { app_id: string; uid?: string };
  parameter: { chat: { domain: string; temperature?: number; top_k?: number; max_tokens?: number; auditing?: string } };
  payload: { message: { text: SparkMessage[] }; functions?: { text: SparkFunction[] } };
}

export interface SparkUsage {
  question_tokens?: number;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** One server frame; `header.status` 2 marks the last, `header.code` ≠ 0 an error. */
export interface SparkFrame {
  header: { code: number; message: string; sid: string; status?: number };
  payload?: {
    choices?: {
      status: number;
      seq: number;
      text: Array<{
        content: string;
        role: 'assistant';
        index: number;
        content_type?: string;
        function_call?: { name: string; arguments: string };
      }>;
    };
    usage?: { text: SparkUsage };
  };
}
