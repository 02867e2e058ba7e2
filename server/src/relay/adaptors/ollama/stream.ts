import type { RelayCall, RelayChunk } from '../../adaptor.js';
import { ChunkWriter, streamErrorChunk } from '../openai-kit/chat-answer.js';
import { readChatRequest } from '../openai-kit/chat-request.js';
import type { ChatDelta } from '../openai-kit/chat-types.js';
import { isObject } from '../openai-kit/json.js';
import { readJsonLines } from '../openai-kit/sse-events.js';
import { usageOf } from '../openai-kit/usage.js';
import { ollamaFinishReason, ollamaToolCalls } from './response.js';
import type { OllamaChatResponse } from './types.js';

/** Ollama's NDJSON stream as OpenAI chunks; the `done` line carries the reason and the token counts. */
export async function* readOllamaStream(body: AsyncIterable<Buffer>, call: RelayCall): AsyncIterable<RelayChunk> {
  const writer = new ChunkWriter(call.model, readChatRequest(call).stream_options?.include_usage === true);
  let toolCount = 0;
  for await (const line of readJsonLines(body)) {
    if (!isObject(line)) continue;
    if (typeof line.error === 'string') {
      yield streamErrorChunk(line.error, 'ollama_error');
      return;
    }
    const event = line as unknown as OllamaChatResponse;
    const delta: ChatDelta = {};
    if (event.message?.content) delta.content = event.message.content;
    if (event.message?.thinking) delta.reasoning_content = event.message.thinking;
    const calls = ollamaToolCalls(event.message?.tool_calls);
    if (calls.length > 0) {
      delta.tool_calls = calls.map((toolCall, offset) => ({ index: toolCount + offset, ...toolCall }));
      toolCount += calls.length;
    }
    if (Object.keys(delta).length > 0) yield writer.delta(delta);
    if (event.done) {
      yield* writer.finish(
        ollamaFinishReason(event.done_reason, toolCount > 0),
        usageOf(event.prompt_eval_count ?? 0, event.eval_count ?? 0),
      );
      return;
    }
  }
}
