import type { RelayCall, RelayResult, UpstreamErrorBody, UpstreamResponse, Usage } from '../../adaptor.js';
import { UpstreamError } from '../../upstream-error.js';
import { nowSeconds } from '../../../lib/time.js';
import { chatCompletion, chatResult } from '../openai-kit/chat-answer.js';
import type { ChatAnswerMessage } from '../openai-kit/chat-types.js';
import { embeddingsResult } from '../openai-kit/embeddings-answer.js';
import { isObject, parseJsonObject, tryParseObject } from '../openai-kit/json.js';
import { vendorErrorBody } from '../openai-kit/upstream-errors.js';
import { usageOf } from '../openai-kit/usage.js';
import type {
  HunyuanChatResponse,
  HunyuanEmbeddingResponse,
  HunyuanError,
  HunyuanToolCall,
  HunyuanUsage,
} from './types.js';

/** Status for a Tencent Cloud error code (they all come with HTTP 200). https://cloud.tencent.com/document/api/1729/101842 */
function statusOfCode(code: string): number {
  if (code.startsWith('AuthFailure') || code.startsWith('UnauthorizedOperation')) return 401;
  if (code.startsWith('ResourceInsufficient') || code.startsWith('FailedOperation.ServiceNotActivated')) return 403;
  if (code.startsWith('LimitExceeded') || code.startsWith('RequestLimitExceeded')) return 429;
  if (code.startsWith('InvalidParameter') || code.startsWith('MissingParameter') || code.startsWith('UnknownParameter'))
    return 400;
  return 500;
}

/** A Tencent error in OpenAI's shape; an exhausted balance reads as `insufficient_quota`. */
export function tencentErrorBody(error: HunyuanError, requestId?: string): UpstreamErrorBody {
  const type = error.Code.startsWith('ResourceInsufficient') ? 'insufficient_quota' : 'tencent_error';
  const message = requestId ? `${error.Message} (RequestId: ${requestId})` : error.Message;
  return vendorErrorBody(statusOfCode(error.Code), message, type, error.Code);
}

export const hunyuanUsage = (usage: HunyuanUsage | undefined): Usage =>
  usageOf(usage?.PromptTokens ?? 0, usage?.CompletionTokens ?? 0, usage?.TotalTokens);

/** `sensitive` is Hunyuan's content filter; an empty string means "not finished". */
export function hunyuanFinishReason(reason: string | undefined): string | null {
  if (!reason) return null;
  return reason === 'sensitive' ? 'content_filter' : reason;
}

export const openAIToolCalls = (calls: HunyuanToolCall[]) =>
  calls.map((call) => ({
    id: call.Id,
    type: 'function' as const,
    function: { name: call.Function.Name, arguments: call.Function.Arguments || '{}' },
  }));

/** The `Response` object of a whole answer, or the UpstreamError it carries. */
function unwrap(response: UpstreamResponse): Record<string, unknown> {
  const payload = parseJsonObject(response.body);
  const inner = isObject(payload.Response) ? payload.Response : payload;
  const error = inner.Error as HunyuanError | undefined;
  if (error?.Code) throw new UpstreamError(tencentErrorBody(error, inner.RequestId as string | undefined));
  return inner;
}

/** A whole ChatCompletions or GetEmbedding answer in OpenAI's shape. */
export function readTencentResponse(response: UpstreamResponse, call: RelayCall): RelayResult {
  const inner = unwrap(response);
  if (call.mode === 'embeddings') {
    const answer = inner as HunyuanEmbeddingResponse;
    const vectors = (answer.Data ?? []).map((item) => ({ index: item.Index, embedding: item.Embedding }));
    return embeddingsResult(call, vectors, hunyuanUsage(answer.Usage));
  }
  const answer = inner as HunyuanChatResponse;
  const choice = answer.Choices?.[0];
  const message: ChatAnswerMessage = { role: 'assistant', content: choice?.Message?.Content ?? '' };
  const toolCalls = choice?.Message?.ToolCalls;
  if (toolCalls?.length) {
    message.tool_calls = openAIToolCalls(toolCalls);
    message.content = message.content || null;
  }
  return chatResult(
    chatCompletion({
      id: answer.Id ?? answer.RequestId ?? `chatcmpl-${nowSeconds()}`,
      created: answer.Created ?? nowSeconds(),
      model: call.model,
      message,
      finishReason: hunyuanFinishReason(choice?.FinishReason) ?? 'stop',
      usage: hunyuanUsage(answer.Usage),
    }),
  );
}

/** A non-2xx answer (or a JSON error where a stream was expected) in OpenAI's shape. */
export function readTencentError(response: UpstreamResponse): UpstreamErrorBody {
  const payload = tryParseObject(response.body);
  const inner = payload && isObject(payload.Response) ? payload.Response : payload;
  const error = inner?.Error as HunyuanError | undefined;
  if (error?.Code) return tencentErrorBody(error, inner?.RequestId as string | undefined);
  return vendorErrorBody(
    response.status >= 400 ? response.status : 500,
    response.body.toString('utf8').slice(0, 500),
    'tencent_error',
    null,
  );
}
