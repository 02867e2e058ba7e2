import type { RelayCall, RelayChunk } from '../../adaptor.js';
import { readLines } from '../../pipeline/sse-lines.js';
import { UpstreamError, unreadableAnswer } from '../../upstream-error.js';
import { nowSeconds } from '../../../lib/time.js';
import { chatChunkData, toolCallId } from '../openai-kit/chat-answer.js';
import { tryParseObject } from '../openai-kit/json.js';
import { baiduErrorOf, baiduFinishReason, baiduUsage } from './response.js';
import type { BaiduStreamEvent } from './types.js';

/**
 * ERNIE's SSE (`data: {…}` with an incremental `result`, `is_end` on the last event, no `[DONE]`) as OpenAI
 * chunks. The usage of the last event is the whole usage. An error arrives as a bare JSON line.
 */
export async function* readBaiduStream(body: AsyncIterable<Buffer>, call: RelayCall): AsyncIterable<RelayChunk> {
  let first = true;
  for await (const line of readLines(body)) {
    const data = line.startsWith('data:') ? line.slice(5).trim() : line.trim();
    if (data === '' || data === '[DONE]' || line.startsWith(':') || line.startsWith('event:') || line.startsWith('id:'))
      continue;
    const event = tryParseObject(data) as BaiduStreamEvent | undefined;
    if (!event) continue;
    const error = baiduErrorOf(event);
    if (error) throw new UpstreamError(error);
    const base = { id: event.id, created: event.created ?? nowSeconds(), model: call.model };
    const delta = first ? { role: 'assistant' as const, content: event.result ?? '' } : { content: event.result ?? '' };
    first = false;
    if (!event.is_end) {
      yield { data: chatChunkData({ ...base, delta, finishReason: null }), text: event.result ?? '' };
      continue;
    }
    const usage = event.usage && event.usage.total_tokens ? baiduUsage(event.usage) : undefined;
    const functionCall = event.function_call;
    const toolCalls = functionCall
      ? [
          {
            index: 0,
            id: toolCallId(),
            type: 'function' as const,
            function: { name: functionCall.name, arguments: functionCall.arguments || '{}' },
          },
        ]
      : undefined;
    const finishReason = baiduFinishReason(event.finish_reason, Boolean(functionCall));
    yield {
      data: chatChunkData({
        ...base,
        delta: toolCalls ? { ...delta, tool_calls: toolCalls } : delta,
        finishReason,
        usage,
      }),
      usage,
      text: (event.result ?? '') + (functionCall?.arguments ?? ''),
    };
    return;
  }
  // No `is_end` event: the answer was cut (the pipeline tells the client and bills what arrived).
  throw unreadableAnswer('the ERNIE stream ended before its last event');
}
