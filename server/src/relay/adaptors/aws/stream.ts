import type { RelayCall, RelayChunk } from '../../adaptor.js';
import { ClaudeStreamConverter, wantsUsage } from '../anthropic/stream.js';
import type { ClaudeStreamEvent } from '../anthropic/types.js';
import { ChunkWriter, streamErrorChunk, usageOf } from '../chat-shapes/chat-answer.js';
import { isRecord, parseJsonBody } from '../chat-shapes/upstream-errors.js';
import { bedrockModel } from './request.js';
import { bedrockErrorBody, llamaFinishReason } from './response.js';
import type { LlamaResponse } from './types.js';

async function* claudeEvents(payloads: AsyncIterable<Uint8Array>, call: RelayCall): AsyncIterable<RelayChunk> {
  const converter = new ClaudeStreamConverter(call.model, wantsUsage(call));
  for await (const payload of payloads) {
    const event = parseJsonBody(Buffer.from(payload)) as ClaudeStreamEvent | undefined;
    if (event && typeof event.type === 'string') yield* converter.accept(event);
  }
  yield* converter.end();
}

async function* llamaEvents(payloads: AsyncIterable<Uint8Array>, call: RelayCall): AsyncIterable<RelayChunk> {
  const writer = new ChunkWriter(call.model, wantsUsage(call));
  let promptTokens = 0;
  let finished = false;
  for await (const payload of payloads) {
    const event = parseJsonBody(Buffer.from(payload));
    if (!isRecord(event)) continue;
    const chunk = event as unknown as LlamaResponse;
    if (chunk.prompt_token_count) promptTokens = chunk.prompt_token_count;
    if (chunk.generation) yield writer.delta({ content: chunk.generation });
    if (chunk.stop_reason) {
      const metrics = chunk['amazon-bedrock-invocationMetrics'];
      const usage = usageOf(metrics?.inputTokenCount ?? promptTokens, metrics?.outputTokenCount ?? chunk.generation_token_count ?? 0);
      finished = true;
      yield* writer.finish(llamaFinishReason(chunk.stop_reason), usage);
    }
  }
  if (!finished) yield* writer.finish('stop', undefined);
}

/**
 * Bedrock stream payloads (the decoded `bytes` of each event-stream chunk, as the AWS SDK yields them) as
 * OpenAI chunks: Claude's events or Llama's generations. An exception inside the stream becomes an error
 * chunk that ends it.
 */
export async function* readBedrockStream(payloads: AsyncIterable<Uint8Array>, call: RelayCall): AsyncIterable<RelayChunk> {
  const events = bedrockModel(call.model).family === 'claude' ? claudeEvents(payloads, call) : llamaEvents(payloads, call);
  try {
    yield* events;
  } catch (error) {
    const body = bedrockErrorBody(error);
    yield streamErrorChunk(body.message, body.type, body.code);
  }
}
