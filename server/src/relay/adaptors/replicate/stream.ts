import type { RelayCall, RelayChunk } from '../../adaptor.js';
import { ChunkWriter, streamErrorChunk } from '../openai-kit/chat-answer.js';
import { readChatRequest } from '../openai-kit/chat-request.js';
import { isObject, parseJson, stringOf } from '../openai-kit/json.js';
import { readSseEvents } from '../openai-kit/sse-events.js';

/**
 * A prediction's stream URL (`event: output` with raw text tokens, `event: error`, `event: done`) as OpenAI
 * chunks. Replicate reports no usage here; the pipeline counts the text.
 */
export async function* readReplicateStream(body: AsyncIterable<Buffer>, call: RelayCall): AsyncIterable<RelayChunk> {
  const writer = new ChunkWriter(call.model, readChatRequest(call).stream_options?.include_usage === true);
  for await (const event of readSseEvents(body)) {
    if (event.event === 'output' && event.data !== '') yield writer.delta({ content: event.data });
    else if (event.event === 'error') {
      const parsed = parseJson(event.data);
      yield streamErrorChunk(
        (isObject(parsed) ? stringOf(parsed.detail) || stringOf(parsed.error) : '') ||
          event.data ||
          'Replicate stream error',
        'replicate_error',
      );
      return;
    } else if (event.event === 'done') {
      const parsed = parseJson(event.data);
      const reason = isObject(parsed) ? stringOf(parsed.reason) : '';
      if (reason === 'error' || reason === 'canceled') {
        yield streamErrorChunk(`Replicate prediction ${reason}`, 'replicate_error');
        return;
      }
      break;
    }
  }
  yield* writer.finish('stop', undefined);
}
