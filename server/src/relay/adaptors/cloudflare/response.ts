import type { RelayCall, RelayResult, UpstreamErrorBody, UpstreamResponse } from '../../adaptor.js';
import { UpstreamError, unreadableAnswer } from '../../upstream-error.js';
import { readErrorBody, readOpenAIResponse } from '../openai/response.js';
import { nowSeconds } from '../../../lib/time.js';
import { completionId } from '../openai-kit/chat-answer.js';
import { bodyExcerpt, isObject, parseJson } from '../openai-kit/json.js';
import { errorBody } from '../openai-kit/upstream-errors.js';
import { usageOf } from '../openai-kit/usage.js';
import type { CloudflareEnvelope, CloudflareRunResult } from './types.js';

/** The first message of Cloudflare's `errors` list, undefined when the body is not that envelope. */
function envelopeError(parsed: unknown): string | undefined {
  if (!isObject(parsed) || parsed.success !== false || !Array.isArray(parsed.errors)) return undefined;
  const first = parsed.errors[0] as { code?: unknown; message?: unknown } | undefined;
  return typeof first?.message === 'string' ? first.message : 'Cloudflare API error';
}

/** Cloudflare's `{success:false, errors:[…]}` (or an OpenAI-style error from the compatible endpoints). */
export function readCloudflareError(response: UpstreamResponse): UpstreamErrorBody {
  const message = envelopeError(parseJson(response.body));
  return message
    ? errorBody(response.status, message, 'cloudflare_error', String(response.status))
    : readErrorBody(response.status, response.body);
}

/** Chat and embeddings answers are OpenAI's; a native `run` answer becomes a text completion. */
export function readCloudflareResponse(response: UpstreamResponse, call: RelayCall): RelayResult {
  const parsed = parseJson(response.body);
  const failure = envelopeError(parsed);
  if (failure) throw new UpstreamError(errorBody(500, failure, 'cloudflare_error'));
  if (call.mode !== 'completions') return readOpenAIResponse(response, call);
  const result = isObject(parsed) ? (parsed as unknown as CloudflareEnvelope<CloudflareRunResult>).result : null;
  if (!result || typeof result.response !== 'string')
    throw unreadableAnswer(`no result.response: ${bodyExcerpt(response.body)}`);
  const usage = result.usage?.total_tokens
    ? usageOf(result.usage.prompt_tokens ?? 0, result.usage.completion_tokens ?? 0, result.usage.total_tokens)
    : undefined;
  const answer = {
    id: completionId().replace('chatcmpl-', 'cmpl-'),
    object: 'text_completion',
    created: nowSeconds(),
    model: call.model,
    choices: [{ index: 0, text: result.response, finish_reason: 'stop', logprobs: null }],
    usage: usage ?? usageOf(0, 0),
  };
  return {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(answer)),
    usage,
    text: result.response,
  };
}
