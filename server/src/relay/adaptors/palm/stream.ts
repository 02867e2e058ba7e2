import type { RelayCall, RelayChunk } from '../../adaptor.js';
import { ChunkWriter } from '../openai-kit/chat-answer.js';
import { readChatRequest } from '../openai-kit/chat-request.js';
import { palmToChatCompletion } from './response.js';

/** PaLM does not stream: its whole answer is replayed as one content chunk and a finish chunk. */
export async function* readPalmStream(body: AsyncIterable<Buffer>, call: RelayCall): AsyncIterable<RelayChunk> {
  const parts: Buffer[] = [];
  for await (const part of body) parts.push(part);
  const completion = palmToChatCompletion(Buffer.concat(parts), call);
  const choice = completion.choices[0];
  const writer = new ChunkWriter(call.model, readChatRequest(call).stream_options?.include_usage === true);
  yield writer.delta({ content: choice?.message.content ?? '' });
  yield* writer.finish(choice?.finish_reason ?? 'stop', completion.usage);
}
