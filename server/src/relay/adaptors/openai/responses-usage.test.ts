import { describe, expect, test } from 'vitest';
import { pieces } from '../../../../test/mock-upstreams/relay-call-kit.js';
import type { Usage } from '../../adaptor.js';
import { callUsageOf } from '../../billing/call-usage.js';
import { nativeRelayed } from '../../../../test/native-road-kit.js';
import { NativeEventRelay } from '../../fronts/responses/native-stream.js';
import { readResponsesAnswer } from './responses-answer.js';

type Json = Record<string, unknown>;

// https://platform.openai.com/docs/guides/tools-web-search: a search call, then the message citing it.
const searched = [
  { type: 'web_search_call', id: 'ws_67c9fa0502748190b7dd390736892e100be649c1a5ff9609', status: 'completed' },
  {
    id: 'msg_67c9fa077e288190af08fdffda2e34f20be649c1a5ff9609',
    type: 'message',
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text: 'On March 6, 2025, several news outlets reported…', annotations: [] }],
  },
];

// https://platform.openai.com/docs/guides/reasoning: the usage of its example (1024 of 1186 output tokens
// were reasoning), here with part of the input read from the cache.
const usage = {
  input_tokens: 75,
  input_tokens_details: { cached_tokens: 64 },
  output_tokens: 1186,
  output_tokens_details: { reasoning_tokens: 1024 },
  total_tokens: 1261,
};

const expected: Usage = {
  prompt_tokens: 75,
  completion_tokens: 1186,
  total_tokens: 1261,
  prompt_tokens_details: { cached_tokens: 64 },
  completion_tokens_details: { reasoning_tokens: 1024 },
  web_search_requests: 1,
};

const response = (status: string, extra: Json = {}) => ({
  id: 'resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b',
  object: 'response',
  created_at: 1_741_476_542,
  status,
  model: 'o4-mini-2025-04-16',
  ...extra,
});

function sse(events: Json[]): string {
  return events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`).join('');
}

/** What billing reads of a Responses stream on the native road (the Responses front on an OpenAI channel). */
async function lastUsage(body: string): Promise<Usage | undefined> {
  const context = { id: 'resp_gateway', createdAt: 1, request: { model: 'o4-mini' } };
  return (await nativeRelayed(pieces(body, 11), new NativeEventRelay(context))).usage;
}

describe('Responses API usage, read in full', () => {
  test('a whole answer: cached input, reasoning output, one web search per web_search_call', () => {
    const body = Buffer.from(JSON.stringify(response('completed', { output: searched, usage })));
    const result = readResponsesAnswer({ status: 200, headers: {}, body });
    expect(result.usage).toEqual(expected);
    expect(callUsageOf(result.usage!)).toEqual({ input: 11, cache_read: 64, output: 1186, web_searches: 1 });
  });

  test('streamed: the final event (completed or incomplete) carries the usage and the searches', async () => {
    const events = (ending: string, status: string) => [
      { type: 'response.created', sequence_number: 0, response: response('in_progress', { output: [], usage: null }) },
      { type: 'response.output_item.done', sequence_number: 1, output_index: 0, item: searched[0] },
      {
        type: 'response.output_text.delta',
        sequence_number: 2,
        output_index: 1,
        content_index: 0,
        delta: 'On March 6',
      },
      { type: ending, sequence_number: 3, response: response(status, { output: searched, usage }) },
    ];
    expect(await lastUsage(sse(events('response.completed', 'completed')))).toEqual(expected);
    expect(await lastUsage(sse(events('response.incomplete', 'incomplete')))).toEqual(expected);
  });

  test('a stream cut before its final event reports no usage (the relay counts the text it got)', async () => {
    const cut = sse([
      { type: 'response.created', sequence_number: 0, response: response('in_progress', { output: [], usage: null }) },
      { type: 'response.output_text.delta', sequence_number: 1, output_index: 0, content_index: 0, delta: 'On March' },
    ]);
    expect(await lastUsage(cut)).toBeUndefined();
  });
});
