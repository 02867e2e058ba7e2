import { describe, expect, test } from 'vitest';
import { fixture, fixtureBytes } from '../../../../test/mock-upstreams/mock-kit.js';
import { collect, pieces } from '../../../../test/mock-upstreams/relay-call-kit.js';
import { relayCall } from '../../../../test/relay-call.js';
import type { RelayChunk, Usage } from '../../adaptor.js';
import { callUsageOf } from '../../billing/call-usage.js';
import { promptTokens } from '../../../domain/pricing/price.js';
import { readVertexResponse } from '../vertexai/response.js';
import { readVertexStream } from '../vertexai/stream.js';
import { nativeRelayed } from '../../../../test/native-road-kit.js';
import { GeminiNativeStream, GeminiStreamWriter } from '../../fronts/gemini/stream.js';
import { readGeminiResponse } from './response.js';
import { readGeminiStream } from './stream.js';

/*
 * Usages in the shape of https://ai.google.dev/api/generate-content#UsageMetadata: promptTokenCount includes
 * the cached content; thoughts and the prompt of Google's own tools are counted apart; the details split
 * tokens by modality.
 */
const chat = (model: string, stream = false) => relayCall({ body: { model, messages: [], stream }, type: 24 });
/** What billing reads of a Gemini stream on the native road (the Gemini front on a Gemini channel). */
const nativeUsage = async (body: AsyncIterable<Buffer>, model: string) =>
  (await nativeRelayed(body, new GeminiNativeStream(new GeminiStreamWriter(model, 'sse'), 'sse'))).usage;

const whole = (name: string, model: string, read = readGeminiResponse): Usage | undefined =>
  read({ status: 200, headers: {}, body: fixtureBytes('gemini', name) }, chat(model)).usage;

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

/** The events of `sse` before its `count`th, then the connection fails. */
async function* brokenOffAfter(sse: string, count: number): AsyncIterable<Buffer> {
  // The fixture is CRLF-framed, as Google sends it.
  yield* pieces(
    sse
      .split(/\r?\n\r?\n/)
      .slice(0, count)
      .join('\r\n\r\n') + '\r\n\r\n',
  );
  throw new Error('socket hang up');
}

describe('Gemini usage: cached content, thoughts, tools, modalities', () => {
  test('cached content (https://ai.google.dev/gemini-api/docs/caching, its example): a read, over the 200K tier', () => {
    const usage = whole('cached-content.json', 'gemini-2.5-pro');
    expect(usage).toEqual({
      prompt_tokens: 696_219,
      completion_tokens: 214,
      total_tokens: 696_433,
      prompt_tokens_details: { cached_tokens: 696_190 },
    });
    const classes = callUsageOf(usage!);
    expect(classes).toEqual({ input: 29, cache_read: 696_190, output: 214 });
    // The whole prompt, cache included, chooses the context tier.
    expect(promptTokens(classes)).toBe(696_219);
  });

  test('audio in, thinking and a search tool: audio apart from its cached part, thoughts as reasoning output', () => {
    const usage = whole('audio-thinking-search.json', 'gemini-2.5-flash');
    expect(usage).toEqual({
      prompt_tokens: 2250 + 320,
      completion_tokens: 12 + 230,
      total_tokens: 2812,
      prompt_tokens_details: { cached_tokens: 1024, audio_tokens: 1600 - 800 },
      completion_tokens_details: { reasoning_tokens: 230 },
    });
    expect(callUsageOf(usage!)).toEqual({ input: 746, cache_read: 1024, input_audio: 800, output: 242 });
    // The grounding search itself is not counted yet: Google bills it per grounded prompt (2.5) or per query (3).
  });

  test('an image model (https://ai.google.dev/gemini-api/docs/image-generation): its image output tokens', () => {
    const usage = whole('image-output.json', 'gemini-2.5-flash-image');
    expect(usage).toEqual({
      prompt_tokens: 15,
      completion_tokens: 1303,
      total_tokens: 1318,
      completion_tokens_details: { image_tokens: 1290 },
    });
    expect(callUsageOf(usage!)).toEqual({ input: 15, output: 13, output_image: 1290 });
  });

  test('Vertex reads Gemini’s usage the same way', () => {
    expect(whole('audio-thinking-search.json', 'gemini-2.5-flash', readVertexResponse)).toEqual(
      whole('audio-thinking-search.json', 'gemini-2.5-flash'),
    );
  });

  test('streamed: each event’s running usage is kept, so a stream broken off is billed what it reported', async () => {
    const sse = fixture('gemini', 'stream.sse');
    const final = { prompt_tokens: 9, completion_tokens: 7, total_tokens: 16 };
    const sofar = { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 };
    expect((await collect(readGeminiStream(pieces(sse), chat('gemini-1.5-flash', true)))).usage).toEqual(final);
    expect(await billedUsage(readGeminiStream(brokenOffAfter(sse, 2), chat('gemini-1.5-flash', true)))).toEqual(sofar);
    expect(await nativeUsage(brokenOffAfter(sse, 2), 'gemini-1.5-flash')).toEqual(sofar);
    expect(await billedUsage(readVertexStream(brokenOffAfter(sse, 2), chat('gemini-1.5-flash', true)))).toEqual(sofar);
  });
});
