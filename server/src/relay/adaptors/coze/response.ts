import type { RelayCall, RelayResult, UpstreamErrorBody, UpstreamResponse } from '../../adaptor.js';
import { UpstreamError } from '../../upstream-error.js';
import { readErrorBody } from '../openai/response.js';
import { chatCompletion, chatResult } from '../openai-kit/chat-answer.js';
import { isObject, parseJson } from '../openai-kit/json.js';
import { parseSseText } from '../openai-kit/sse-events.js';
import { errorBody } from '../openai-kit/upstream-errors.js';
import { usageOf } from '../openai-kit/usage.js';
import { cozeStep } from './stream.js';

/** Coze's `{code, msg}` (sent with HTTP 200 as well) as an OpenAI error; undefined for a zero code. */
export function cozeErrorBody(status: number, body: Buffer): UpstreamErrorBody | undefined {
  const parsed = parseJson(body);
  if (!isObject(parsed) || typeof parsed.code !== 'number' || parsed.code === 0) return undefined;
  return errorBody(
    status,
    typeof parsed.msg === 'string' ? parsed.msg : `Coze error ${parsed.code}`,
    'coze_error',
    String(parsed.code),
  );
}

export const readCozeError = (response: UpstreamResponse): UpstreamErrorBody =>
  cozeErrorBody(response.status, response.body) ?? readErrorBody(response.status, response.body);

/**
 * The whole answer, gathered from the stream the request always asks for. Coze reports failures as HTTP 200
 * with a JSON `{code, msg}`, so that is checked first.
 */
export function readCozeResponse(response: UpstreamResponse, call: RelayCall): RelayResult {
  const failure = cozeErrorBody(response.status >= 400 ? response.status : 500, response.body);
  if (failure) throw new UpstreamError(failure);
  let text = '';
  let usage = usageOf(0, 0);
  for (const event of parseSseText(response.body.toString('utf8'))) {
    const step = cozeStep(event);
    if (!step) continue;
    if (step.kind === 'text') text += step.text;
    else if (step.kind === 'error') throw new UpstreamError(errorBody(500, step.message, 'coze_error', step.code));
    else {
      if (step.usage) usage = step.usage;
      break;
    }
  }
  return chatResult(
    chatCompletion({ model: call.model, message: { role: 'assistant', content: text }, finishReason: 'stop', usage }),
  );
}
