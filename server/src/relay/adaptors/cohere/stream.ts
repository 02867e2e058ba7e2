import type { RelayCall, RelayChunk } from '../../adaptor.js';
import { ChunkWriter, streamErrorChunk } from '../openai-kit/chat-answer.js';
import { readChatRequest } from '../openai-kit/chat-request.js';
import { isObject } from '../openai-kit/json.js';
import { readJsonLines } from '../openai-kit/sse-events.js';
import { cohereFinishReason, cohereToolCalls, cohereUsage } from './response.js';
import type { CohereStreamEvent } from './types.js';

/**
 * Cohere's v1 NDJSON stream as OpenAI chunks: `text-generation` text, `tool-calls-generation` calls, and
 * `stream-end` with the finish reason and the whole response's token counts.
 */
export async function* readCohereStream(body: AsyncIterable<Buffer>, call: RelayCall): AsyncIterable<RelayChunk> {
  const writer = new ChunkWriter(call.model, readChatRequest(call).stream_options?.include_usage === true);
  let toolCount = 0;
  for await (const line of readJsonLines(body)) {
    if (!isObject(line)) continue;
    if (typeof line.message === 'string' && !line.event_type) {
      yield streamErrorChunk(line.message, 'cohere_error');
      return;
    }
    const event = line as unknown as CohereStreamEvent;
    if (event.event_type === 'stream-start') yield writer.delta({ content: '' });
    else if (event.event_type === 'text-generation' && event.text) yield writer.delta({ content: event.text });
    else if (event.event_type === 'tool-calls-generation') {
      const calls = cohereToolCalls(event.tool_calls);
      if (calls.length > 0)
        yield writer.delta({
          tool_calls: calls.map((toolCall, offset) => ({ index: toolCount + offset, ...toolCall })),
        });
      toolCount += calls.length;
    } else if (event.event_type === 'stream-end') {
      if (event.finish_reason === 'ERROR' || event.finish_reason === 'ERROR_LIMIT') {
        yield streamErrorChunk(`Cohere stream ended with ${event.finish_reason}`, 'cohere_error', event.finish_reason);
        return;
      }
      yield* writer.finish(cohereFinishReason(event.finish_reason, toolCount > 0), cohereUsage(event.response));
      return;
    }
  }
}
