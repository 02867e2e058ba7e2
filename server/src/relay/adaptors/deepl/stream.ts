import type { RelayCall, RelayChunk } from '../../adaptor.js';
import { ChunkWriter } from '../openai-kit/chat-answer.js';
import { readChatRequest } from '../openai-kit/chat-request.js';
import { deeplToChatCompletion } from './response.js';

/** DeepL does not stream: its one JSON answer is replayed as one content chunk and a finish chunk. */
export async function* readDeeplStream(body: AsyncIterable<Buffer>, call: RelayCall): AsyncIterable<RelayChunk> {
  const parts: Buffer[] = [];
  for await (const part of body) parts.push(part);
  const completion = deeplToChatCompletion(Buffer.concat(parts), call);
  const writer = new ChunkWriter(call.model, readChatRequest(call).stream_options?.include_usage === true);
  yield writer.delta({ content: completion.choices[0]?.message.content ?? '' });
  yield* writer.finish('stop', completion.usage);
}
