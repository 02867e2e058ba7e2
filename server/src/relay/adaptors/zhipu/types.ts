/** Zhipu BigModel wire types. v4: https://open.bigmodel.cn/dev/api/normal-model/glm-4 ; v3 (legacy model-api). */

/** v4 failures: HTTP 4xx with the code as a string. */
export interface ZhipuV4Error {
  error?: { code?: string; message?: string };
}

/** v3 `invoke` request. */
export interface ZhipuV3Request {
  prompt: Array<{ role: 'user' | 'assistant'; content: string }>;
  temperature?: number;
  top_p?: number;
  incremental: boolean;
  request_id?: string;
}

export interface ZhipuV3Usage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

/** v3 answers are always HTTP 200; `success:false` with `code`/`msg` is a failure. */
export interface ZhipuV3Response {
  code: number;
  msg: string;
  success: boolean;
  data?: {
    request_id?: string;
    task_id?: string;
    task_status?: string;
    /** Content arrives wrapped in literal quotes (a JSON string inside the string). */
    choices?: Array<{ role: string; content: string }>;
    usage?: ZhipuV3Usage;
  };
}

/** The `meta:` line of v3's `event:finish`. */
export interface ZhipuV3StreamMeta {
  task_status?: string;
  usage?: ZhipuV3Usage;
  task_id?: string;
  request_id?: string;
}
