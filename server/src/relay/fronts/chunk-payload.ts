import { isObject, parseJson } from '../adaptors/openai-kit/json.js';

/** A front's writer of its own stream events from the relay's OpenAI chunks (Anthropic's, the Responses API's). */
interface ChunkEventWriter {
  accept(chunk: Record<string, unknown>): Iterable<string>;
  end(): Iterable<string>;
}

/**
 * One relay stream payload (an OpenAI chunk, the relay's error object or `[DONE]`) as the writer's SSE text;
 * a payload that is no JSON object writes nothing.
 */
export function chunkPayloadText(writer: ChunkEventWriter, data: string): string {
  if (data === '[DONE]') return [...writer.end()].join('');
  const chunk = parseJson(data);
  return isObject(chunk) ? [...writer.accept(chunk)].join('') : '';
}
