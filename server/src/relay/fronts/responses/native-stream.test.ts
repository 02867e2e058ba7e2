import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { nativeRelayed } from '../../../../test/native-road-kit.js';
import type { Usage } from '../../adaptor.js';
import { bytesOf, parseSseText } from '../../adaptors/openai-kit/sse-events.js';
import { NativeEventRelay } from './native-stream.js';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

type Event = Record<string, unknown> & { type: string };

const context = {
  id: 'resp_gateway',
  createdAt: 1,
  request: { model: 'gpt-4.1', previous_response_id: 'resp_before', store: true },
};

/** A recorded Responses stream relayed on the native road, as the pipeline relays a native channel's answer. */
async function relayed(
  recorded: string,
): Promise<{ events: Event[]; written: string; usage?: Usage; text: string; relay: NativeEventRelay }> {
  // Cut into uneven pieces, as bytes arrive from a socket.
  const pieces = recorded.match(/[\s\S]{1,97}/g) ?? [];
  const relay = new NativeEventRelay(context);
  const { written, tail, usage, text } = await nativeRelayed(bytesOf(...pieces), relay);
  const events = parseSseText(written + tail).map(({ event, data }) => {
    const parsed = JSON.parse(data) as Event;
    expect(parsed.type).toBe(event);
    return parsed;
  });
  return { events, written: written + tail, usage, text, relay };
}

describe("a native channel's recorded Responses streams, sent on event for event", () => {
  test.each([
    ['responses-text-stream.sse', 'completed', { prompt_tokens: 37, completion_tokens: 11, total_tokens: 48 }],
    ['responses-function-call-stream.sse', 'completed', { prompt_tokens: 62, completion_tokens: 19, total_tokens: 81 }],
    ['responses-incomplete-stream.sse', 'incomplete', { prompt_tokens: 15, completion_tokens: 4, total_tokens: 19 }],
    ['responses-failed-stream.sse', 'failed', undefined],
  ])('%s: same events and numbers, the gateway id, the usage of its final event', async (name, status, usage) => {
    const recorded = parseSseText(fixture(name)).map(({ data }) => JSON.parse(data) as Event);
    const relayedStream = await relayed(fixture(name));
    const { events, relay } = relayedStream;
    expect(events).toHaveLength(recorded.length);
    events.forEach((event, index) => {
      const original = recorded[index]!;
      if (!original.response) return expect(event).toEqual(original);
      expect(event).toEqual({
        ...original,
        response: {
          ...(original.response as object),
          id: 'resp_gateway',
          created_at: 1,
          previous_response_id: 'resp_before',
        },
      });
    });
    expect(relay.finalResponse?.status).toBe(status);
    expect(relayedStream.usage).toEqual(usage);
    // The events without a response object went on as the upstream wrote them.
    for (const block of fixture(name).split('\n\n'))
      if (block.trim() !== '' && !block.includes('"response":{')) expect(relayedStream.written).toContain(block);
    // What billing counts when no usage comes: the deltas' text.
    const deltas = recorded.filter((event) => event.type.endsWith('.delta')).map((event) => event.delta);
    expect(relayedStream.text).toBe(usage ? '' : deltas.join(''));
  });

  test('a stream that stops before its final event ends in response.failed, numbered on, with the finished items', async () => {
    const recorded = fixture('responses-function-call-stream.sse');
    const cut = recorded.slice(0, recorded.indexOf('event: response.completed'));
    const { events, relay } = await relayed(cut);
    const failed = JSON.parse(parseSseText(relay.fail('the upstream went away'))[0]!.data) as Event;
    expect(failed).toMatchObject({
      type: 'response.failed',
      sequence_number: events.length,
      response: {
        id: 'resp_gateway',
        status: 'failed',
        error: { code: 'server_error', message: 'the upstream went away' },
        output: [{ type: 'function_call', name: 'get_weather', status: 'completed' }],
      },
    });
    expect(relay.fail('again')).toBe('');
    expect(relay.event('{"type":"response.output_text.delta","delta":"late"}')).toBe('');
  });
});
