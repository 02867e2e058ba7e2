import type { RelayCall, RelayChunk } from '../../adaptor.js';
import { readLines } from '../../pipeline/sse-lines.js';
import { UpstreamError } from '../../upstream-error.js';
import { nowSeconds } from '../../../lib/time.js';
import { chatChunkData } from '../openai-kit/chat-answer.js';
import { tryParseObject } from '../openai-kit/json.js';
import { countedUsage, documentsMarkdown, libraryErrorBody } from './response.js';
import type { LibraryResponse, LibraryStreamEvent } from './types.js';

/** `data:{"content":…,"finish":…}` events as chunks; the reference list goes out as a last content chunk. */
export async function* readLibraryStream(body: AsyncIterable<Buffer>, call: RelayCall): AsyncIterable<RelayChunk> {
  const id = `chatcmpl-${nowSeconds()}`;
  const created = nowSeconds();
  let first = true;
  let documents: LibraryStreamEvent['documents'];
  let generated = '';
  for await (const line of readLines(body)) {
    const data = line.startsWith('data:') ? line.slice(5).trim() : line.trim();
    const payload = data ? tryParseObject(data) : undefined;
    if (!payload) continue;
    if (payload.success === false)
      throw new UpstreamError(libraryErrorBody(payload as unknown as LibraryResponse, 200));
    const event = payload as unknown as LibraryStreamEvent;
    if (event.documents?.length) documents = event.documents;
    const content = event.content ?? '';
    if (content) {
      generated += content;
      yield {
        data: chatChunkData({
          id,
          created,
          model: call.model,
          delta: first ? { role: 'assistant', content } : { content },
          finishReason: null,
        }),
        text: content,
      };
      first = false;
    }
    if (event.finish) break;
  }
  const references = documentsMarkdown(documents);
  const delta = first ? { role: 'assistant' as const, content: references } : { content: references };
  const usage = countedUsage(call, generated + references);
  yield {
    data: chatChunkData({ id, created, model: call.model, delta, finishReason: 'stop', usage }),
    text: references,
    usage,
  };
}
