import type { RelayCall, RelayResult, UpstreamErrorBody, UpstreamResponse, Usage } from '../../adaptor.js';
import { UpstreamError, unreadableAnswer } from '../../upstream-error.js';
import { nowSeconds } from '../../../lib/time.js';
import { chatCompletion, chatResult, toolCallId } from '../openai-kit/chat-answer.js';
import type { ChatAnswerMessage } from '../openai-kit/chat-types.js';
import { tryParseObject } from '../openai-kit/json.js';
import { vendorErrorBody } from '../openai-kit/upstream-errors.js';
import { usageOf } from '../openai-kit/usage.js';
import type { SparkFrame } from './types.js';

/**
 * Status for a Spark error code (errors arrive as frames, never as HTTP statuses): 11200 no licence or bad
 * auth, 11201–11203 quotas and limits, 10013/10014/10019 blocked content, 10163 bad parameters.
 * https://www.xfyun.cn/doc/spark/%E6%8E%A5%E5%8F%A3%E8%AF%B4%E6%98%8E.html
 */
export function sparkErrorStatus(code: number): number {
  if (code === 11200 || code === 10313 || code === 10110) return 401;
  if (code >= 11201 && code <= 11203) return 429;
  if ([10013, 10014, 10019, 10160, 10161, 10163, 10907].includes(code)) return 400;
  return 500;
}

export function sparkErrorBody(frame: SparkFrame): UpstreamErrorBody {
  return vendorErrorBody(
    sparkErrorStatus(frame.header.code),
    `${frame.header.message} (sid: ${frame.header.sid})`,
    'xunfei_error',
    frame.header.code,
  );
}

/** The frames of a transport body (one JSON object per line). */
export function* sparkFrames(text: string): Iterable<SparkFrame> {
  for (const line of text.split('\n')) {
    const frame = tryParseObject(line.trim()) as SparkFrame | undefined;
    if (frame?.header) yield frame;
  }
}

/** The frame that ends an answer (`status: 2` in the header or the choices). */
export const isLastFrame = (frame: SparkFrame) => frame.header.status === 2 || frame.payload?.choices?.status === 2;

export function sparkUsage(frame: SparkFrame): Usage | undefined {
  const usage = frame.payload?.usage?.text;
  return usage ? usageOf(usage.prompt_tokens, usage.completion_tokens, usage.total_tokens) : undefined;
}

/** Every frame collected into one answer: texts concatenated, a function call as a tool call, usage of the last. */
export function readXunfeiResponse(response: UpstreamResponse, call: RelayCall): RelayResult {
  let content = '';
  let usage: Usage | undefined;
  let id = '';
  let functionCall: { name: string; arguments: string } | undefined;
  let finished = false;
  for (const frame of sparkFrames(response.body.toString('utf8'))) {
    if (frame.header.code !== 0) throw new UpstreamError(sparkErrorBody(frame));
    finished ||= isLastFrame(frame);
    id ||= frame.header.sid;
    for (const text of frame.payload?.choices?.text ?? []) {
      content += text.content ?? '';
      functionCall ??= text.function_call;
    }
    usage = sparkUsage(frame) ?? usage;
  }
  // A socket closed before the `status: 2` frame is a cut answer, not a short one.
  if (!finished) throw unreadableAnswer('the Spark socket closed before the last frame');
  const message: ChatAnswerMessage = { role: 'assistant', content };
  if (functionCall) {
    message.content = content || null;
    message.tool_calls = [
      {
        id: toolCallId(),
        type: 'function',
        function: { name: functionCall.name, arguments: functionCall.arguments || '{}' },
      },
    ];
  }
  return chatResult(
    chatCompletion({
      id: id || `chatcmpl-${nowSeconds()}`,
      created: nowSeconds(),
      model: call.model,
      message,
      finishReason: functionCall ? 'tool_calls' : 'stop',
      usage,
    }),
  );
}

/** A refused handshake (401 bad signature, 403 clock skew) keeps Spark's `message`. */
export function readXunfeiError(response: UpstreamResponse): UpstreamErrorBody {
  const text = response.body.toString('utf8');
  for (const frame of sparkFrames(text)) if (frame.header.code !== 0) return sparkErrorBody(frame);
  const payload = tryParseObject(response.body);
  const message = typeof payload?.message === 'string' ? payload.message : text.slice(0, 500);
  return vendorErrorBody(response.status >= 400 ? response.status : 500, message, 'xunfei_error', null);
}
