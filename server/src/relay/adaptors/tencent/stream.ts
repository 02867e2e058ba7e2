import type { RelayCall, RelayChunk } from '../../adaptor.js';
import { readLines } from '../../pipeline/sse-lines.js';
import { UpstreamError } from '../../upstream-error.js';
import { nowSeconds } from '../../../lib/time.js';
import { chatChunkData } from '../openai-kit/chat-answer.js';
import type { ChatDelta } from '../openai-kit/chat-types.js';
import { isObject, tryParseObject } from '../openai-kit/json.js';
import { hunyuanFinishReason, hunyuanUsage, tencentErrorBody } from './response.js';
import type { HunyuanChatResponse, HunyuanError } from './types.js';

/**
 * Hunyuan's SSE (`data: {…}` not wrapped in `Response`, no `[DONE]`) as OpenAI chunks. Usage is cumulative
 * in every event; it is sent on the finishing chunk (one-api ignored it and counted tokens itself).
 */
export async function* readTencentStream(body: AsyncIterable<Buffer>, call: RelayCall): AsyncIterable<RelayChunk> {
  let first = true;
  for await (const line of readLines(body)) {
    const data = line.startsWith('data:') ? line.slice(5).trim() : line.trim();
    if (data === '' || data === '[DONE]') continue;
    const payload = tryParseObject(data);
    if (!payload) continue;
    const inner = isObject(payload.Response) ? payload.Response : payload;
    const error = inner.Error as HunyuanError | undefined;
    if (error?.Code) throw new UpstreamError(tencentErrorBody(error, inner.RequestId as string | undefined));
    const event = inner as HunyuanChatResponse;
    const choice = event.Choices?.[0];
    const delta: ChatDelta = { content: choice?.Delta?.Content ?? '' };
    if (first) delta.role = 'assistant';
    first = false;
    const toolCalls = choice?.Delta?.ToolCalls;
    if (toolCalls?.length) {
      delta.tool_calls = toolCalls.map((toolCall, position) => ({
        index: toolCall.Index ?? position,
        ...(toolCall.Id ? { id: toolCall.Id, type: 'function' as const } : {}),
        function: {
          ...(toolCall.Function.Name ? { name: toolCall.Function.Name } : {}),
          arguments: toolCall.Function.Arguments ?? '',
        },
      }));
    }
    const finishReason = hunyuanFinishReason(choice?.FinishReason);
    const usage = finishReason && event.Usage ? hunyuanUsage(event.Usage) : undefined;
    const id = event.Id ?? event.RequestId ?? 'chatcmpl-hunyuan';
    const text = (delta.content ?? '') + (delta.tool_calls ?? []).map((part) => part.function.arguments).join('');
    yield {
      data: chatChunkData({
        id,
        created: event.Created ?? nowSeconds(),
        model: call.model,
        delta,
        finishReason,
        usage,
      }),
      usage,
      text,
    };
  }
}
