import type { RelayCall, RelayChunk } from '../../adaptor.js';
import type { Usage } from '../../adaptor.js';
import { ChunkWriter, streamErrorChunk } from '../openai-kit/chat-answer.js';
import { readChatRequest } from '../openai-kit/chat-request.js';
import type { ChatDelta } from '../openai-kit/chat-types.js';
import { isObject, parseJson } from '../openai-kit/json.js';
import { readSseData } from '../../pipeline/sse-lines.js';
import { candidateContent, geminiFinishReason, geminiUsage } from './response.js';
import type { GeminiResponse } from './types.js';

/**
 * Gemini stream (`?alt=sse`) → OpenAI chunks. Each event is a whole GenerateContentResponse with the new
 * text of that step; usageMetadata holds running totals (the last one is final) and the last event carries
 * finishReason. Function calls arrive whole and get indexes per candidate. (A call from the Gemini front takes
 * the native road instead: its events are forwarded, see RelayCall.native.)
 */
export async function* readGeminiStream(body: AsyncIterable<Buffer>, call: RelayCall): AsyncIterable<RelayChunk> {
  const writer = new ChunkWriter(call.model, readChatRequest(call).stream_options?.include_usage === true);
  const toolCounts = new Map<number, number>();
  let usage: Usage | undefined;
  let sawAnything = false;
  for await (const data of readSseData(body)) {
    const parsed = parseJson(data);
    if (!isObject(parsed)) continue;
    if (isObject(parsed.error)) {
      yield streamErrorChunk(
        String(parsed.error.message ?? 'upstream stream error'),
        String(parsed.error.status ?? 'upstream_error'),
        String(parsed.error.status ?? '') || null,
      );
      return;
    }
    const response = parsed as GeminiResponse;
    if (response.usageMetadata) usage = geminiUsage(response.usageMetadata);
    const candidates = response.candidates ?? [];
    if (candidates.length === 0 && response.promptFeedback?.blockReason) {
      sawAnything = true;
      yield writer.delta({ content: '' }, 'content_filter', usage);
      continue;
    }
    for (const [position, candidate] of candidates.entries()) {
      const index = candidate.index ?? position;
      const { text, reasoning, toolCalls } = candidateContent(candidate);
      const delta: ChatDelta = {};
      if (text !== '' || (toolCalls.length === 0 && !reasoning)) delta.content = text;
      if (reasoning) delta.reasoning_content = reasoning;
      if (toolCalls.length > 0) {
        const first = toolCounts.get(index) ?? 0;
        toolCounts.set(index, first + toolCalls.length);
        delta.tool_calls = toolCalls.map((toolCall, offset) => ({ index: first + offset, ...toolCall }));
      }
      const finish = geminiFinishReason(candidate.finishReason, (toolCounts.get(index) ?? 0) > 0);
      sawAnything = true;
      // Billing keeps the running count, for a stream that breaks off before its last event.
      yield writer.delta(delta, finish, usage, index);
    }
  }
  if (sawAnything) yield* writer.usageChunk(usage);
}
