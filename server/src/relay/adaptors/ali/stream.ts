import type { RelayCall, RelayChunk, Usage } from '../../adaptor.js';
import { readLines } from '../../pipeline/sse-lines.js';
import { UpstreamError } from '../../upstream-error.js';
import { nowSeconds } from '../../../lib/time.js';
import { chatChunkData } from '../openai-kit/chat-answer.js';
import type { ChatDelta } from '../openai-kit/chat-types.js';
import { tryParseObject } from '../openai-kit/json.js';
import { aliErrorBody, aliFinishReason, aliText, aliUsage } from './response.js';
import type { AliChatResponse, AliErrorFields } from './types.js';

/**
 * DashScope's SSE (`id:`, `event:result`, a `:HTTP_STATUS/200` comment, `data:{…}` without a space; no
 * `[DONE]`) as OpenAI chunks. Usage is cumulative in every event, so the last one is sent to the client
 * once, on the finishing chunk. An `event:error` event becomes an UpstreamError.
 */
export async function* readAliStream(body: AsyncIterable<Buffer>, call: RelayCall): AsyncIterable<RelayChunk> {
  let eventName = '';
  let usage: Usage | undefined;
  let first = true;
  let finished = false;
  const id = `chatcmpl-${nowSeconds()}`;
  const created = nowSeconds();
  for await (const line of readLines(body)) {
    if (line === '') {
      eventName = '';
      continue;
    }
    if (line.startsWith('event:')) eventName = line.slice(6).trim();
    if (!line.startsWith('data:')) continue;
    const payload = tryParseObject(line.slice(5).trim());
    if (!payload) continue;
    if (eventName === 'error' || (payload.code && !payload.output))
      throw new UpstreamError(aliErrorBody(payload as AliErrorFields));
    const event = payload as AliChatResponse;
    if (event.usage?.output_tokens) usage = aliUsage(event.usage);
    const choice = event.output?.choices?.[0];
    const message = choice?.message ?? {};
    const delta: ChatDelta = {
      content: message.content !== undefined ? aliText(message.content) : (event.output?.text ?? ''),
    };
    if (first) delta.role = 'assistant';
    first = false;
    if (message.reasoning_content) delta.reasoning_content = message.reasoning_content;
    if (message.tool_calls?.length) {
      delta.tool_calls = message.tool_calls.map((toolCall, position) => ({
        index: toolCall.index ?? position,
        ...(toolCall.id ? { id: toolCall.id, type: 'function' as const } : {}),
        function: {
          ...(toolCall.function.name ? { name: toolCall.function.name } : {}),
          arguments: toolCall.function.arguments ?? '',
        },
      }));
    }
    const finishReason = aliFinishReason(choice?.finish_reason ?? event.output?.finish_reason);
    if (finishReason) finished = true;
    const text =
      (delta.content ?? '') +
      (delta.reasoning_content ?? '') +
      (delta.tool_calls ?? []).map((part) => part.function.arguments).join('');
    const chunkUsage = finishReason ? usage : undefined;
    yield {
      data: chatChunkData({ id, created, model: call.model, delta, finishReason, usage: chunkUsage }),
      // Billing keeps the running count, for a stream that breaks off before its last event.
      usage,
      text,
    };
  }
  if (!finished && usage) {
    yield {
      data: JSON.stringify({ id, object: 'chat.completion.chunk', created, model: call.model, choices: [], usage }),
      usage,
    };
  }
}
