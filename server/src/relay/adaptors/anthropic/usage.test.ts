import { describe, expect, test } from 'vitest';
import { fixture, fixtureBytes } from '../../../../test/mock-upstreams/mock-kit.js';
import { collect, pieces } from '../../../../test/mock-upstreams/relay-call-kit.js';
import { relayCall } from '../../../../test/relay-call.js';
import type { RelayChunk, Usage } from '../../adaptor.js';
import { callUsageOf } from '../../billing/call-usage.js';
import { readBedrockAnswer } from '../aws/response.js';
import { readBedrockStream } from '../aws/stream.js';
import { readVertexResponse } from '../vertexai/response.js';
import { readVertexStream } from '../vertexai/stream.js';
import { nativeRelayed } from '../../../../test/native-road-kit.js';
import { AnthropicEventWriter, ClaudeNativeStream } from '../../fronts/anthropic/stream.js';
import { readAnthropicResponse } from './response.js';
import { readAnthropicStream } from './stream.js';

/*
 * cache-ttl.json and cache-ttl-stream.sse carry the usage of the 1-hour cache example of
 * https://docs.claude.com/en/docs/build-with-claude/prompt-caching (2048 uncached input tokens, 1800 read from
 * the cache, 248 written to it: 100 for 1 hour and 148 for 5 minutes; 503 output tokens), in the event sequence
 * of https://docs.claude.com/en/docs/build-with-claude/streaming (message_delta repeats the counts, cumulative).
 */
const cached: Usage = {
  prompt_tokens: 2048 + 248 + 1800,
  completion_tokens: 503,
  total_tokens: 2048 + 248 + 1800 + 503,
  prompt_tokens_details: { cached_tokens: 1800 },
  cache_creation_input_tokens: 248,
  cache_creation_1h_input_tokens: 100,
};
const cachedClasses = { input: 2048, cache_read: 1800, cache_write: 148, cache_write_1h: 100, output: 503 };

const chat = (model: string, stream = false) => relayCall({ body: { model, messages: [], stream }, type: 14 });
/** What billing reads of a Claude stream on the native road (the Anthropic front on a Claude channel). */
const nativeUsage = async (body: AsyncIterable<Buffer>, model: string) =>
  (await nativeRelayed(body, new ClaudeNativeStream(new AnthropicEventWriter(model), model))).usage;

/** The last usage a stream reported for billing, as the relay keeps it (also when the stream breaks off). */
async function billedUsage(chunks: AsyncIterable<RelayChunk>): Promise<Usage | undefined> {
  let usage: Usage | undefined;
  try {
    for await (const chunk of chunks) if (chunk.usage) usage = chunk.usage;
  } catch {
    // A break-off: the relay charges what the stream reported before it.
  }
  return usage;
}

/** The bytes of `sse`, then the connection fails. */
async function* brokenOff(sse: string): AsyncIterable<Buffer> {
  yield* pieces(sse);
  throw new Error('socket hang up');
}

/** The stream up to (not including) an event, as if the connection ended there. */
const cutBefore = (sse: string, event: string) => sse.slice(0, sse.indexOf(`event: ${event}`));

/** The stream's events as Bedrock's decoded payloads (one JSON per line). */
const asBedrockPayloads = (sse: string) =>
  sse
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => line.slice(6))
    .join('\n');

describe('Claude usage: cache reads, writes by TTL, searches', () => {
  test('a whole answer: every input token is prompt; the 1-hour writes apart', () => {
    const result = readAnthropicResponse(
      { status: 200, headers: {}, body: fixtureBytes('anthropic', 'cache-ttl.json') },
      chat('claude-sonnet-4-5-20250929'),
    );
    expect(result.usage).toEqual(cached);
    expect(callUsageOf(result.usage!)).toEqual(cachedClasses);
  });

  test('streamed: the same usage, for OpenAI clients and for the Anthropic front', async () => {
    const sse = fixture('anthropic', 'cache-ttl-stream.sse');
    const converted = await collect(readAnthropicStream(pieces(sse), chat('claude-sonnet-4-5-20250929', true)));
    expect(converted.usage).toEqual(cached);
    expect(await nativeUsage(pieces(sse), 'claude-sonnet-4-5-20250929')).toEqual(cached);
  });

  test('a native Claude stream never counts the prompt locally: message_start carries the upstream’s count', async () => {
    const sse = fixture('anthropic', 'cache-ttl-stream.sse');
    let counted = 0;
    const writer = new AnthropicEventWriter('claude-sonnet-4-5-20250929', () => (counted += 1));
    const relayed = await nativeRelayed(pieces(sse), new ClaudeNativeStream(writer, 'claude-sonnet-4-5-20250929'));
    expect(relayed.usage).toEqual(cached);
    expect(counted).toBe(0);
    // A converted stream asks for it, once, for its message_start.
    const converted = new AnthropicEventWriter('gpt-4o', () => (counted += 1) * 100);
    const chunk = { id: 'c', object: 'chat.completion.chunk' as const, created: 1, model: 'gpt-4o', choices: [] };
    const text = [...converted.accept(chunk), ...converted.accept(chunk)].join('');
    expect(text).toContain('"input_tokens":100');
    expect(counted).toBe(1);
  });

  test('a stream broken off after message_start is billed its whole input (and the one output token so far)', async () => {
    const sse = cutBefore(fixture('anthropic', 'cache-ttl-stream.sse'), 'message_delta');
    const partial = { ...cached, completion_tokens: 1, total_tokens: 2048 + 248 + 1800 + 1 };
    const model = 'claude-sonnet-4-5-20250929';
    expect(await billedUsage(readAnthropicStream(brokenOff(sse), chat(model, true)))).toEqual(partial);
    expect(await nativeUsage(brokenOff(sse), model)).toEqual(partial);
    // Ended without an error, the stream is closed with the same usage.
    expect((await collect(readAnthropicStream(pieces(sse), chat(model, true)))).usage).toEqual(partial);
  });

  test('for the Anthropic front, message_delta carries the final usage: a break-off before message_stop loses nothing', async () => {
    const sse = cutBefore(fixture('anthropic', 'cache-ttl-stream.sse'), 'message_stop');
    expect(await nativeUsage(brokenOff(sse), 'claude-sonnet-4-5-20250929')).toEqual(cached);
  });

  test('message_delta’s cumulative input grows past message_start’s (server tools); a 0 there erases nothing', async () => {
    // The web search stream: message_start says 2679 input tokens, message_delta 10682 (the results are input).
    const searched = await collect(
      readAnthropicStream(pieces(fixture('anthropic', 'web-search-stream.sse')), chat('claude-sonnet-4-5', true)),
    );
    expect(searched.usage).toMatchObject({ prompt_tokens: 10682, web_search_requests: 1 });
    expect(callUsageOf(searched.usage!)).toEqual({ input: 10682, output: 510, web_searches: 1 });
    const zeroed = fixture('anthropic', 'cache-ttl-stream.sse').replace(
      '"usage":{"input_tokens":2048,"cache_creation_input_tokens":248,"cache_read_input_tokens":1800,"output_tokens":503}',
      '"usage":{"input_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":503}',
    );
    expect((await collect(readAnthropicStream(pieces(zeroed), chat('claude-sonnet-4-5', true)))).usage).toEqual(cached);
  });

  test('Bedrock (InvokeModel, Anthropic’s body) and Vertex read the same usage, whole and streamed', async () => {
    // https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages.html
    const bedrockModel = 'anthropic.claude-sonnet-4-5-20250929-v1:0';
    const whole = readBedrockAnswer(fixtureBytes('anthropic', 'cache-ttl.json'), chat(bedrockModel));
    expect(whole.usage).toEqual(cached);
    const payloads = asBedrockPayloads(fixture('anthropic', 'cache-ttl-stream.sse'));
    expect((await collect(readBedrockStream(pieces(payloads), chat(bedrockModel, true)))).usage).toEqual(cached);
    // https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude: the Messages API's answers.
    const vertexModel = 'claude-sonnet-4-5@20250929';
    const vertexAnswer = { status: 200, headers: {}, body: fixtureBytes('anthropic', 'cache-ttl.json') };
    expect(readVertexResponse(vertexAnswer, chat(vertexModel)).usage).toEqual(cached);
    const sse = fixture('anthropic', 'cache-ttl-stream.sse');
    expect((await collect(readVertexStream(pieces(sse), chat(vertexModel, true)))).usage).toEqual(cached);
  });
});
