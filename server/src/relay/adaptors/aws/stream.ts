import type { RelayCall, RelayChunk } from '../../adaptor.js';
import { ClaudeStreamConverter, wantsUsage } from '../anthropic/stream.js';
import type { ClaudeStreamEvent } from '../anthropic/types.js';
import { ChunkWriter, streamErrorChunk } from '../openai-kit/chat-answer.js';
import { isObject } from '../openai-kit/json.js';
import { readJsonLines } from '../openai-kit/sse-events.js';
import { usageOf } from '../openai-kit/usage.js';
import { bedrockModel } from './request.js';
import { bedrockErrorBody, llamaFinishReason } from './response.js';
import type { LlamaResponse } from './types.js';

async function* claudeEvents(payloads: AsyncIterable<unknown>, call: RelayCall): AsyncIterable<RelayChunk> {
  const converter = new ClaudeStreamConverter(call.model, wantsUsage(call));
  for await (const payload of payloads) {
    const event = payload as ClaudeStreamEvent;
    if (isObject(event) && typeof event.type === 'string') yield* converter.accept(event);
  }
  yield* converter.end();
}

async function* llamaEvents(payloads: AsyncIterable<unknown>, call: RelayCall): AsyncIterable<RelayChunk> {
  const writer = new ChunkWriter(call.model, wantsUsage(call));
  let promptTokens = 0;
  let finished = false;
  for await (const event of payloads) {
    if (!isObject(event)) continue;
    const chunk = event as unknown as LlamaResponse;
    if (chunk.prompt_token_count) promptTokens = chunk.prompt_token_count;
    if (chunk.generation) yield writer.delta({ content: chunk.generation });
    if (chunk.stop_reason) {
      const metrics = chunk['amazon-bedrock-invocationMetrics'];
      const usage = usageOf(
        metrics?.inputTokenCount ?? promptTokens,
        metrics?.outputTokenCount ?? chunk.generation_token_count ?? 0,
      );
      finished = true;
      yield* writer.finish(llamaFinishReason(chunk.stop_reason), usage);
    }
  }
  if (!finished) yield* writer.finish('stop', undefined);
}

/**
 * A Claude model's Bedrock stream on the native road: its decoded events as Anthropic's server-sent events,
 * which the pipeline forwards to the Anthropic front.
 */
export async function* bedrockClaudeEvents(body: AsyncIterable<Buffer>): AsyncIterable<Buffer> {
  for await (const payload of readJsonLines(body)) {
    if (!isObject(payload) || typeof payload.type !== 'string') continue;
    yield Buffer.from(`event: ${payload.type}\ndata: ${JSON.stringify(payload)}\n\n`);
  }
}

/**
 * Bedrock stream payloads (the decoded `bytes` of each event-stream chunk, one JSON per line as
 * `invokeBedrockStream` hands them on) as OpenAI chunks: Claude's events or Llama's generations. An exception
 * inside the stream becomes an error chunk that ends it.
 */
export async function* readBedrockStream(body: AsyncIterable<Buffer>, call: RelayCall): AsyncIterable<RelayChunk> {
  const payloads = readJsonLines(body);
  const events =
    bedrockModel(call.model).family === 'claude' ? claudeEvents(payloads, call) : llamaEvents(payloads, call);
  try {
    yield* events;
  } catch (error) {
    const body = bedrockErrorBody(error);
    yield streamErrorChunk(body.message, body.type, body.code);
  }
}
