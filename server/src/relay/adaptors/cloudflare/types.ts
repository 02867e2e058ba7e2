/** Cloudflare Workers AI wire types. https://developers.cloudflare.com/workers-ai/ */

/** Cloudflare's API envelope (native `run` answers and every error). */
export interface CloudflareEnvelope<T> {
  result: T | null;
  success: boolean;
  errors: { code: number; message: string }[];
  messages: unknown[];
}

/** Native text generation input (`/run/{model}`). */
export interface CloudflareRunRequest {
  prompt: string;
  max_tokens?: number;
  stream?: boolean;
  temperature?: number;
}

export interface CloudflareRunResult {
  response: string;
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
}
