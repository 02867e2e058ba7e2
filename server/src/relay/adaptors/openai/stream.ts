import type { RelayCall, RelayChunk } from '../../adaptor.js';
import { readSseData } from '../../pipeline/sse-lines.js';
import { choicesText, readUsage } from './response.js';

/**
 * Passes an OpenAI event stream through chunk by chunk. Chunks without choices and without usage (Azure's
 * content-filter prelude) are dropped; `[DONE]` is left to the pipeline, which always sends exactly one.
 */
export async function* readOpenAIStream(body: AsyncIterable<Buffer>, _call: RelayCall): AsyncIterable<RelayChunk> {
  for await (const data of readSseData(body)) {
    if (data === '[DONE]') return;
    if (data === '') continue;
    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(data) as Record<string, unknown>;
    } catch {
      yield { data };
      continue;
    }
    const usage = readUsage(payload.usage);
    const choices = payload.choices;
    if (Array.isArray(choices) && choices.length === 0 && !usage && !payload.error) continue;
    yield { data, usage, text: choicesText(payload) };
  }
}
