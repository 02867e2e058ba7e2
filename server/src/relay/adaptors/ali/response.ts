import { nowSeconds } from '../../../lib/time.js';
import { chatCompletion, chatResult, toolCallId } from '../openai-kit/chat-answer.js';
import type { ChatAnswerMessage } from '../openai-kit/chat-types.js';
import { embeddingsResult } from '../openai-kit/embeddings-answer.js';
import { parseJsonObject, tryParseObject } from '../openai-kit/json.js';
import { vendorErrorBody } from '../openai-kit/upstream-errors.js';
import { promptDetailsParts, usageOf, withUsageParts } from '../openai-kit/usage.js';
import type { RelayCall, RelayResult, UpstreamErrorBody, UpstreamResponse, Usage } from '../../adaptor.js';
import { UpstreamError } from '../../upstream-error.js';
import type { AliChatResponse, AliEmbeddingResponse, AliErrorFields, AliMessage, AliUsage } from './types.js';

/** Status for a DashScope error code when the HTTP status says nothing (stream error events, 200 bodies). */
function statusOfCode(code: string): number {
  if (code === 'InvalidApiKey') return 401;
  if (code === 'Arrearage' || code.startsWith('AccessDenied')) return 403;
  if (code.startsWith('Throttling')) return 429;
  if (code.startsWith('InvalidParameter') || code === 'DataInspectionFailed' || code.startsWith('BadRequest'))
    return 400;
  return 500;
}

/** A DashScope failure in OpenAI's shape; an account in arrears reads as `insufficient_quota` like OpenAI's. */
export function aliErrorBody(fields: AliErrorFields, httpStatus?: number): UpstreamErrorBody {
  const code = fields.code ?? 'ali_error';
  const status = httpStatus && httpStatus >= 400 ? httpStatus : statusOfCode(code);
  const type = code === 'Arrearage' ? 'insufficient_quota' : 'ali_error';
  return vendorErrorBody(status, fields.message ?? '', type, code);
}

/**
 * DashScope's usage: input and output totals, the cache reads and writes of the prompt in OpenAI's
 * `prompt_tokens_details` (https://www.alibabacloud.com/help/en/model-studio/context-cache) and the reasoning
 * of thinking models.
 */
export const aliUsage = (usage: AliUsage | undefined): Usage =>
  withUsageParts(usageOf(usage?.input_tokens ?? 0, usage?.output_tokens ?? 0, usage?.total_tokens), {
    ...promptDetailsParts(usage?.prompt_tokens_details),
    reasoning: usage?.output_tokens_details?.reasoning_tokens,
  });

/** The text of a DashScope message content: a string, or the `text` parts of a multimodal answer. */
export function aliText(content: AliMessage['content'] | undefined): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => ('text' in part ? part.text : '')).join('');
}

/** DashScope sends the string "null" until the last event. */
export const aliFinishReason = (reason: string | undefined) => (!reason || reason === 'null' ? null : reason);

function answerMessage(answer: AliChatResponse): { message: ChatAnswerMessage; finishReason: string | null } {
  const choice = answer.output?.choices?.[0];
  if (!choice)
    return {
      message: { role: 'assistant', content: answer.output?.text ?? '' },
      finishReason: aliFinishReason(answer.output?.finish_reason) ?? 'stop',
    };
  const source = choice.message ?? {};
  const message: ChatAnswerMessage = { role: 'assistant', content: aliText(source.content) };
  if (source.reasoning_content) message.reasoning_content = source.reasoning_content;
  if (source.tool_calls?.length) {
    message.content = message.content || null;
    message.tool_calls = source.tool_calls.map((call) => ({
      id: call.id || toolCallId(),
      type: 'function',
      function: { name: call.function.name ?? '', arguments: call.function.arguments || '{}' },
    }));
  }
  const finishReason = aliFinishReason(choice.finish_reason) ?? (message.tool_calls ? 'tool_calls' : 'stop');
  return { message, finishReason };
}

/** Whole answers of text generation and embeddings, converted (images go through images.ts). */
export function readAliResponse(response: UpstreamResponse, call: RelayCall): RelayResult {
  const payload = parseJsonObject(response.body);
  const fields = payload as AliErrorFields;
  if (fields.code && !('output' in payload)) throw new UpstreamError(aliErrorBody(fields));
  if (call.mode === 'embeddings') {
    const answer = payload as AliEmbeddingResponse;
    const vectors = (answer.output?.embeddings ?? []).map((item) => ({
      index: item.text_index,
      embedding: item.embedding,
    }));
    const total = answer.usage?.total_tokens ?? 0;
    return embeddingsResult(call, vectors, usageOf(total, 0, total));
  }
  const answer = payload as AliChatResponse;
  const { message, finishReason } = answerMessage(answer);
  return chatResult(
    chatCompletion({
      id: answer.request_id ? `chatcmpl-${answer.request_id}` : `chatcmpl-${nowSeconds()}`,
      created: nowSeconds(),
      model: call.model,
      message,
      finishReason,
      usage: aliUsage(answer.usage),
    }),
  );
}

/** A non-2xx answer in OpenAI's shape, keeping DashScope's code and message. */
export function readAliError(response: UpstreamResponse): UpstreamErrorBody {
  const payload = tryParseObject(response.body) as AliErrorFields | undefined;
  if (payload?.code || payload?.message) return aliErrorBody(payload, response.status);
  return vendorErrorBody(
    response.status >= 400 ? response.status : 500,
    response.body.toString('utf8').slice(0, 500),
    'ali_error',
    null,
  );
}
