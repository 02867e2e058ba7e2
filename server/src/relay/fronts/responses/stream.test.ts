import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parseSseText } from '../../adaptors/openai-kit/sse-events.js';
import { ResponsesEventWriter } from './stream.js';
import type { ResponsesRequest } from './types.js';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

/** The writer's SSE text for a recorded chat stream, fed payload by payload as the relay does. */
function convertChatStream(chatSse: string, request: ResponsesRequest): string {
  const writer = new ResponsesEventWriter({ id: 'resp_test', createdAt: 1741476542, request });
  return parseSseText(chatSse)
    .map(({ data }) => writer.payload(data))
    .join('');
}

type Event = Record<string, unknown> & { type: string; sequence_number: number };

/** Each event as `event:` name and parsed data, checking the two agree. */
function events(sse: string): Event[] {
  return parseSseText(sse).map(({ event, data }) => {
    const parsed = JSON.parse(data) as Event;
    expect(parsed.type).toBe(event);
    return parsed;
  });
}

/**
 * An event with what differs by design between two streams made alike: generated ids become the order they
 * first appeared in, and of the response object only what the answer decides (status, output, usage, errors)
 * is kept; the rest echoes the request.
 */
function comparable(event: Event, ids: Map<string, string>): unknown {
  const rename = (value: unknown): unknown => {
    if (typeof value === 'string' && /^(resp|msg|fc|rs)_/.test(value)) {
      if (!ids.has(value)) ids.set(value, `id${ids.size}`);
      return ids.get(value);
    }
    if (Array.isArray(value)) return value.map(rename);
    if (typeof value === 'object' && value !== null)
      return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, rename(field)]));
    return value;
  };
  const { response, ...rest } = event;
  if (!response) return rename(rest);
  const { status, output, usage, error, incomplete_details } = response as Record<string, unknown>;
  return rename({ ...rest, response: { status, output, usage, error, incomplete_details } });
}

describe('chat chunks as the Responses event sequence', () => {
  test.each([
    ['chat-text-stream.sse', 'responses-text-stream.sse'],
    ['chat-function-call-stream.sse', 'responses-function-call-stream.sse'],
    ['chat-incomplete-stream.sse', 'responses-incomplete-stream.sse'],
    ['chat-failed-stream.sse', 'responses-failed-stream.sse'],
  ])('%s replays as %s, event for event', (chat, recorded) => {
    const expected = events(fixture(recorded));
    const request = { model: 'gpt-4.1-2025-04-14', max_output_tokens: chat.includes('incomplete') ? 4 : null };
    const actual = events(convertChatStream(fixture(chat), request));
    expect(actual.map((event) => event.type)).toEqual(expected.map((event) => event.type));
    expect(actual.map((event) => event.sequence_number)).toEqual(expected.map((_, index) => index));
    const actualIds = new Map<string, string>();
    const expectedIds = new Map<string, string>();
    actual.forEach((event, index) => {
      expect(comparable(event, actualIds)).toEqual(comparable(expected[index]!, expectedIds));
    });
  });

  test('text then two tool calls are three items in order, each closed before the next opens', () => {
    const chunk = (delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const sse =
      chunk({ content: 'Checking.' }) +
      chunk({ tool_calls: [{ index: 0, id: 'call_a', function: { name: 'a', arguments: '{}' } }] }) +
      chunk({ tool_calls: [{ index: 1, id: 'call_b', function: { name: 'b', arguments: '{"x":' } }] }) +
      chunk({ tool_calls: [{ index: 1, function: { arguments: '1}' } }] }, 'tool_calls') +
      'data: [DONE]\n\n';
    const converted = events(convertChatStream(sse, { model: 'm' }));
    const done = converted.filter((event) => event.type === 'response.output_item.done');
    expect(done.map((event) => [event.output_index, (event.item as { type: string }).type])).toEqual([
      [0, 'message'],
      [1, 'function_call'],
      [2, 'function_call'],
    ]);
    const final = converted.at(-1)!;
    expect(final.type).toBe('response.completed');
    expect((final.response as { output: unknown[] }).output).toEqual(done.map((event) => event.item));
    expect(done[2]!.item).toMatchObject({ call_id: 'call_b', name: 'b', arguments: '{"x":1}', status: 'completed' });
    // Every delta names the item that was added last.
    let current: string | undefined;
    for (const event of converted) {
      if (event.type === 'response.output_item.added') current = (event.item as { id: string }).id;
      if (event.type.endsWith('.delta')) expect(event.item_id).toBe(current);
    }
  });

  test("a chat upstream's reasoning_content is a reasoning item with its summary, before the message", () => {
    const chunk = (delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const sse =
      chunk({ reasoning_content: 'The user ' }) +
      chunk({ reasoning_content: 'greets.' }) +
      chunk({ content: 'Hello!' }, 'stop') +
      'data: [DONE]\n\n';
    const converted = events(convertChatStream(sse, { model: 'm' }));
    expect(converted.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect((converted.at(-1)!.response as { output: unknown[] }).output).toEqual([
      {
        type: 'reasoning',
        id: expect.stringMatching(/^rs_/),
        summary: [{ type: 'summary_text', text: 'The user greets.' }],
      },
      expect.objectContaining({ type: 'message', content: [expect.objectContaining({ text: 'Hello!' })] }),
    ]);
  });

  test('finish_reason length ends in response.incomplete with the reason and the usage', () => {
    const sse =
      `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'cut' }, finish_reason: 'length' }] })}\n\n` +
      `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8, prompt_tokens_details: { cached_tokens: 4 } } })}\n\n` +
      'data: [DONE]\n\n';
    const final = events(convertChatStream(sse, { model: 'm', max_output_tokens: 3 })).at(-1)!;
    expect(final.type).toBe('response.incomplete');
    expect(final.response).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      max_output_tokens: 3,
      output: [{ type: 'message', status: 'incomplete', content: [{ text: 'cut' }] }],
      usage: { input_tokens: 5, output_tokens: 3, total_tokens: 8, input_tokens_details: { cached_tokens: 4 } },
    });
  });

  test('an upstream error mid-stream closes the open item and ends in response.failed; nothing follows', () => {
    const writer = new ResponsesEventWriter({ id: 'resp_x', createdAt: 1, request: { model: 'm' } });
    const text = [
      ...writer.accept({ choices: [{ index: 0, delta: { content: 'par' }, finish_reason: null }] }),
      ...writer.accept({ error: { message: 'upstream went away', type: 'upstream_error', code: 'bad_response' } }),
      ...writer.end(),
    ].join('');
    const converted = events(text);
    expect(converted.map((event) => event.type).slice(-4)).toEqual([
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.failed',
    ]);
    expect(converted.at(-1)!.response).toMatchObject({
      status: 'failed',
      error: { code: 'bad_response', message: 'upstream went away' },
      output: [{ status: 'incomplete', content: [{ text: 'par' }] }],
    });
    expect(writer.result?.status).toBe('failed');
  });

  test('a stream that stops without a finish reason or usage (the upstream broke off) ends in response.failed', () => {
    const context = { id: 'resp_x', createdAt: 1, request: { model: 'm' } };
    const writer = new ResponsesEventWriter(context);
    const converted = events(
      writer.payload(JSON.stringify({ choices: [{ index: 0, delta: { content: 'Half' }, finish_reason: null }] })) +
        writer.payload('[DONE]'),
    );
    expect(converted.at(-1)).toMatchObject({
      type: 'response.failed',
      response: { status: 'failed', error: { code: 'server_error' }, output: [{ status: 'incomplete' }] },
    });
    expect(events([...new ResponsesEventWriter(context).end()].join('')).map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.failed',
    ]);
  });
});
