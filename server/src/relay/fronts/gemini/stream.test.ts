import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { nativeRelayed } from '../../../../test/native-road-kit.js';
import { bytesOf, parseSseText } from '../../adaptors/openai-kit/sse-events.js';
import { GeminiNativeStream, GeminiStreamWriter, type GeminiStreamFraming } from './stream.js';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

/** Google's stream of a thinking model (thought summary, text, usage with thoughts), framed as the live API. */
const documentedStream = fixture('gemini-thinking-stream.sse');

/**
 * A Gemini channel's stream on the native road, relayed as the pipeline does (forwardNativeStream), then
 * closed by the relay's `[DONE]` through the front.
 */
async function nativeWritten(framing: GeminiStreamFraming) {
  const writer = new GeminiStreamWriter('gemini-2.5-flash', framing);
  const relayed = await nativeRelayed(bytesOf(documentedStream), new GeminiNativeStream(writer, framing));
  return { ...relayed, out: relayed.written + relayed.tail + writer.payload('[DONE]') };
}

/** The relay's payloads written as the front writes them, `[DONE]` last as the pipeline sends it. */
function written(payloads: string[], framing: GeminiStreamFraming): string {
  const writer = new GeminiStreamWriter('gemini-2.5-flash', framing);
  return [...payloads, '[DONE]'].map((data) => writer.payload(data)).join('');
}

describe('a recorded Gemini stream on the native road', () => {
  test("as SSE: the upstream's bytes, its last event kept for after the charge, and the usage billing reads", async () => {
    const recorded = parseSseText(documentedStream).map(({ data }) => JSON.parse(data) as unknown);
    expect(recorded).toHaveLength(3);
    const { out, tail, usage, text } = await nativeWritten('sse');
    expect(out).toBe(documentedStream);
    expect(parseSseText(tail).map(({ data }) => JSON.parse(data) as unknown)).toEqual(recorded.slice(-1));
    // Billed from the last usageMetadata: thoughts are output, told apart as reasoning.
    expect(usage).toEqual({
      prompt_tokens: 11,
      completion_tokens: 75,
      total_tokens: 86,
      completion_tokens_details: { reasoning_tokens: 48 },
    });
    // The finish reason came: the usage is final, no text is read for counting.
    expect(text).toBe('');
  });

  test('a stream cut before its finish reason gives the text so far, for counting', async () => {
    const cut =
      documentedStream
        .split(/\r?\n\r?\n/)
        .slice(0, 2)
        .join('\r\n\r\n') + '\r\n\r\n';
    const writer = new GeminiStreamWriter('gemini-2.5-flash', 'sse');
    const relayed = await nativeRelayed(bytesOf(cut), new GeminiNativeStream(writer, 'sse'));
    expect(relayed.written).toBe(cut);
    expect(relayed.text.length).toBeGreaterThan(0);
  });

  test('without alt=sse: one JSON array of the same responses', async () => {
    const { out } = await nativeWritten('array');
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
