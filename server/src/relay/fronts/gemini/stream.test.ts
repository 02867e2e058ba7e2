import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { RelayCall, RelayChunk } from '../../adaptor.js';
import { withGeminiOriginal } from '../../adaptors/gemini/gemini-original.js';
import { readGeminiStream } from '../../adaptors/gemini/stream.js';
import { bytesOf, parseSseText } from '../../adaptors/openai-kit/sse-events.js';
import { GeminiStreamWriter, type GeminiStreamFraming } from './stream.js';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

/** Google's stream of a thinking model (thought summary, text, usage with thoughts), framed as the live API. */
const documentedStream = fixture('gemini-thinking-stream.sse');

/** A call of the Gemini front on a Gemini channel: its body is the client's, marked as such. */
function frontCall(): RelayCall {
  const value = withGeminiOriginal(
    { model: 'gemini-2.5-flash', messages: [] },
    { method: 'streamGenerateContent', body: { contents: [] } },
  );
  return {
    mode: 'chat',
    path: '/v1/chat/completions',
    query: '',
    model: 'gemini-2.5-flash',
    stream: true,
    body: { kind: 'json', value, raw: Buffer.from('{}'), changed: false },
    channel: { id: 1, type: 24, name: 'gemini', key: 'k', baseUrl: 'http://127.0.0.1', config: {} },
    clientHeaders: {},
  };
}

/** The relay's payloads written as the front writes them, `[DONE]` last as the pipeline sends it. */
function written(payloads: string[], framing: GeminiStreamFraming): string {
  const writer = new GeminiStreamWriter('gemini-2.5-flash', framing);
  return [...payloads, '[DONE]'].map((data) => writer.payload(data)).join('');
}

async function collect(stream: AsyncIterable<RelayChunk>): Promise<RelayChunk[]> {
  const chunks: RelayChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('a recorded Gemini stream replays through the pass-through event for event', () => {
  test('as SSE: the same responses in the same order, and the usage billing reads', async () => {
    const recorded = parseSseText(documentedStream).map(({ data }) => JSON.parse(data) as unknown);
    expect(recorded).toHaveLength(3);
    const chunks = await collect(readGeminiStream(bytesOf(documentedStream), frontCall()));
    const out = written(
      chunks.map((chunk) => chunk.data),
      'sse',
    );
    expect(parseSseText(out).map(({ data }) => JSON.parse(data) as unknown)).toEqual(recorded);
    // Billed from the last usageMetadata: thoughts are output, told apart as reasoning.
    expect(chunks.at(-1)!.usage).toEqual({
      prompt_tokens: 11,
      completion_tokens: 75,
      total_tokens: 86,
      completion_tokens_details: { reasoning_tokens: 48 },
    });
    expect(chunks.map((chunk) => chunk.text ?? '').join('')).toContain('Neptune.');
  });

  test('without alt=sse: one JSON array of the same responses', async () => {
    const chunks = await collect(readGeminiStream(bytesOf(documentedStream), frontCall()));
    const out = written(
      chunks.map((chunk) => chunk.data),
      'array',
    );
    expect(out.startsWith('[{')).toBe(true);
    expect(JSON.parse(out)).toEqual(parseSseText(documentedStream).map(({ data }) => JSON.parse(data) as unknown));
  });
});

describe('an OpenAI chat stream converted to Gemini responses', () => {
  test("OpenAI's recorded function-call stream: the call goes out whole with its id, STOP and usage", () => {
    const payloads = parseSseText(fixture('openai-function-call-stream.sse')).map(({ data }) => data);
    const responses = parseSseText(written(payloads, 'sse')).map(({ data }) => JSON.parse(data) as unknown);
    expect(responses).toEqual([
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { functionCall: { id: 'call_12345xyz', name: 'get_weather', args: { location: 'Paris, France' } } },
              ],
            },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: { promptTokenCount: 62, candidatesTokenCount: 19, totalTokenCount: 81 },
        modelVersion: 'gemini-2.5-flash',
        responseId: 'chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT',
      },
    ]);
  });

  test('text and reasoning deltas stream as they come; length ends with MAX_TOKENS', () => {
    const chunk = (delta: object, finish: string | null = null, usage?: object) =>
      JSON.stringify({ id: 'chatcmpl-1', choices: [{ index: 0, delta, finish_reason: finish }], usage });
    const out = written(
      [
        chunk({ role: 'assistant', reasoning_content: 'Thinking.' }),
        chunk({ content: 'Hel' }),
        chunk({ content: 'lo' }),
        chunk({}, 'length'),
        JSON.stringify({
          id: 'chatcmpl-1',
          choices: [],
          usage: {
            prompt_tokens: 5,
            completion_tokens: 9,
            total_tokens: 14,
            completion_tokens_details: { reasoning_tokens: 4 },
          },
        }),
      ],
      'sse',
    );
    const responses = parseSseText(out).map(({ data }) => JSON.parse(data) as Record<string, unknown>);
    expect(responses.map((response) => (response.candidates as { content: unknown }[])[0]!.content)).toEqual([
      { role: 'model', parts: [{ text: 'Thinking.', thought: true }] },
      { role: 'model', parts: [{ text: 'Hel' }] },
      { role: 'model', parts: [{ text: 'lo' }] },
      { role: 'model', parts: [{ text: '' }] },
    ]);
    expect(responses.at(-1)).toMatchObject({
      candidates: [{ finishReason: 'MAX_TOKENS' }],
      usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 5, thoughtsTokenCount: 4, totalTokenCount: 14 },
    });
  });

  test('an error inside the stream ends it with Google’s error object (and closes the array)', () => {
    const writer = new GeminiStreamWriter('m', 'array');
    const text = [
      JSON.stringify({ id: 'c', choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }] }),
      JSON.stringify({ error: { message: 'the upstream stream broke off: reset', type: 'upstream_error' } }),
      '[DONE]',
    ]
      .map((data) => writer.payload(data))
      .join('');
    const parsed = JSON.parse(text) as unknown[];
    expect(parsed[1]).toEqual({
      error: { code: 500, message: 'the upstream stream broke off: reset', status: 'INTERNAL' },
    });
  });
});
