import { describe, expect, test } from 'vitest';
import { fixture } from '../../../../test/mock-upstreams/mock-kit.js';
import { pieces } from '../../../../test/mock-upstreams/relay-call-kit.js';
import { relayCall } from '../../../../test/relay-call.js';
import type { Usage } from '../../adaptor.js';
import { callUsageOf } from '../../billing/call-usage.js';
import { readAliResponse } from './response.js';
import { readAliStream } from './stream.js';

const call = (stream = false) => relayCall({ body: { model: 'qwen-plus', messages: [], stream }, type: 17 });

describe('DashScope usage', () => {
  test('cache reads and writes (prompt_tokens_details) and reasoning (output_tokens_details)', () => {
    // https://www.alibabacloud.com/help/en/model-studio/context-cache: the explicit cache's usage fields, on
    // DashScope's own protocol as on the compatible one.
    const answer = {
      output: { choices: [{ message: { role: 'assistant', content: 'Done.' }, finish_reason: 'stop' }] },
      usage: {
        input_tokens: 3019,
        output_tokens: 104,
        total_tokens: 3123,
        prompt_tokens_details: {
          cached_tokens: 2048,
          cache_creation_input_tokens: 500,
          cache_creation: { ephemeral_5m_input_tokens: 500 },
          cache_type: 'ephemeral',
        },
        output_tokens_details: { reasoning_tokens: 60 },
      },
      request_id: '0ba0c1d2-5d1f-9a7e-b2c4-8f3e1a6d7c90',
    };
    const result = readAliResponse({ status: 200, headers: {}, body: Buffer.from(JSON.stringify(answer)) }, call());
    expect(result.usage).toEqual({
      prompt_tokens: 3019,
      completion_tokens: 104,
      total_tokens: 3123,
      prompt_tokens_details: { cached_tokens: 2048 },
      completion_tokens_details: { reasoning_tokens: 60 },
      cache_creation_input_tokens: 500,
    });
    expect(callUsageOf(result.usage!)).toEqual({ input: 471, cache_read: 2048, cache_write: 500, output: 104 });
  });

  test('a stream broken off is billed the running usage of its last event', async () => {
    // stream.sse: DashScope's usage is cumulative in every event (providers.md §7.3).
    const sse = fixture('ali', 'stream.sse');
    async function* brokenOff(): AsyncIterable<Buffer> {
      yield* pieces(sse.slice(0, sse.indexOf('id:3')));
      throw new Error('socket hang up');
    }
    let usage: Usage | undefined;
    await expect(
      (async () => {
        for await (const chunk of readAliStream(brokenOff(), call(true))) if (chunk.usage) usage = chunk.usage;
      })(),
    ).rejects.toThrow('socket hang up');
    expect(usage).toEqual({ prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 });
  });
});
