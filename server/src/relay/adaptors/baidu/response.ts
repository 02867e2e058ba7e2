import { chatCompletion, chatResult, toolCallId } from '../openai-kit/chat-answer.js';
import type { ChatAnswerMessage } from '../openai-kit/chat-types.js';
import { embeddingsResult } from '../openai-kit/embeddings-answer.js';
import { parseJsonObject, tryParseObject } from '../openai-kit/json.js';
import { vendorErrorBody } from '../openai-kit/upstream-errors.js';
import { usageOf } from '../openai-kit/usage.js';
import type { RelayCall, RelayResult, UpstreamErrorBody, UpstreamResponse } from '../../adaptor.js';
import { UpstreamError } from '../../upstream-error.js';
import type { BaiduChatResponse, BaiduEmbeddingResponse, BaiduErrorFields, BaiduUsage } from './types.js';

/**
 * Baidu answers errors with HTTP 200; the status we give the client follows the code: 110/111 (token
 * invalid/expired) and 6 (no permission) are auth failures, 4/17/18/336501/336502 limits, 336003 a bad request.
 * https://cloud.baidu.com/doc/WENXINWORKSHOP/s/tlmyncueh
 */
export function baiduErrorStatus(code: number): number {
  if ([6, 13, 14, 110, 111].includes(code)) return 401;
  if ([4, 17, 18, 19, 336501, 336502].includes(code)) return 429;
  if ([336003, 336006, 336007, 336104].includes(code)) return 400;
  return 500;
}

/** The OpenAI error for a body with `error_code` set, or undefined when the body is no error. */
export function baiduErrorOf(fields: BaiduErrorFields): UpstreamErrorBody | undefined {
  if (!fields.error_code) return undefined;
  return vendorErrorBody(baiduErrorStatus(fields.error_code), fields.error_msg ?? '', 'baidu_error', fields.error_code);
}

/** ERNIE's finish reasons in OpenAI's words. */
export function baiduFinishReason(reason: string | undefined, hasFunctionCall: boolean): string {
  if (hasFunctionCall || reason === 'function_call') return 'tool_calls';
  if (reason === 'length' || reason === 'content_filter') return reason;
  return 'stop';
}

export const baiduUsage = (usage: BaiduUsage | undefined) =>
  usageOf(usage?.prompt_tokens ?? 0, usage?.completion_tokens ?? 0, usage?.total_tokens);

/** The assistant message of an answer: text, or a tool call when ERNIE chose a function. */
export function baiduMessage(answer: BaiduChatResponse): ChatAnswerMessage {
  if (!answer.function_call) return { role: 'assistant', content: answer.result ?? '' };
  const { name, arguments: args } = answer.function_call;
  return {
    role: 'assistant',
    content: answer.result || null,
    tool_calls: [{ id: toolCallId(), type: 'function', function: { name, arguments: args || '{}' } }],
  };
}

/** A whole chat or embeddings answer, converted to OpenAI's shape. */
export function readBaiduResponse(response: UpstreamResponse, call: RelayCall): RelayResult {
  const payload = parseJsonObject(response.body);
  const error = baiduErrorOf(payload as BaiduErrorFields);
  if (error) throw new UpstreamError(error);
  if (call.mode === 'embeddings') {
    const answer = payload as unknown as BaiduEmbeddingResponse;
    return embeddingsResult(call, answer.data ?? [], baiduUsage(answer.usage));
  }
  const answer = payload as unknown as BaiduChatResponse;
  return chatResult(
    chatCompletion({
      id: answer.id,
      created: answer.created,
      model: call.model,
      message: baiduMessage(answer),
      finishReason: baiduFinishReason(answer.finish_reason, Boolean(answer.function_call)),
      usage: baiduUsage(answer.usage),
    }),
  );
}

/** A non-2xx answer (or a 200 error body the pipeline hands over) in OpenAI's error shape. */
export function readBaiduError(response: UpstreamResponse): UpstreamErrorBody {
  const payload = tryParseObject(response.body) as BaiduErrorFields | undefined;
  const error = payload && baiduErrorOf(payload);
  if (error) return error;
  const text = response.body.toString('utf8').slice(0, 500);
  return vendorErrorBody(response.status >= 400 ? response.status : 500, text, 'baidu_error', null);
}
