import type { UpstreamErrorBody } from '../../adaptor.js';
import { isObject } from '../openai-kit/json.js';
import { vendorErrorBody } from '../openai-kit/upstream-errors.js';

/**
 * MiniMax reports failures in `base_resp` and may do so with HTTP 200 and no choices: 1004 authentication,
 * 1008 insufficient balance, 1002/1039 rate limits, 1026/1027 sensitive content, 2013 bad parameters.
 * https://platform.minimaxi.com/document/error%20code
 */
function statusOfCode(code: number): number {
  if (code === 1004) return 401;
  if (code === 1008) return 403;
  if (code === 1002 || code === 1039) return 429;
  if ([1026, 1027, 2013].includes(code)) return 400;
  return 500;
}

/** The error in a MiniMax answer or chunk, or undefined when `base_resp.status_code` is 0 or absent. */
export function minimaxError(payload: Record<string, unknown>, httpStatus: number): UpstreamErrorBody | undefined {
  const base = payload.base_resp;
  if (!isObject(base) || !base.status_code) return undefined;
  const code = Number(base.status_code);
  const status = httpStatus >= 400 ? httpStatus : statusOfCode(code);
  return vendorErrorBody(
    status,
    String(base.status_msg ?? ''),
    code === 1008 ? 'insufficient_quota' : 'minimax_error',
    code,
  );
}

/**
 * MiniMax ends a stream with the whole message under `message` (object `chat.completion`) and sends
 * `usage: {total_tokens: 0}` on earlier chunks; both are put in OpenAI's chunk shape.
 */
export function minimaxChunk(payload: Record<string, unknown>): Record<string, unknown> {
  const choices = Array.isArray(payload.choices) ? payload.choices.filter(isObject) : [];
  const rewritten: Record<string, unknown> = {
    ...payload,
    object: 'chat.completion.chunk',
    choices: choices.map(({ message, delta, ...choice }) => ({ ...choice, delta: message ? {} : (delta ?? {}) })),
  };
  const usage = payload.usage;
  if (!isObject(usage) || !usage.total_tokens) delete rewritten.usage;
  delete rewritten.base_resp;
  return rewritten;
}
