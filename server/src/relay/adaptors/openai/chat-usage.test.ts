import { describe, expect, test } from 'vitest';
import { collect, fetchTools, pieces } from '../../../../test/mock-upstreams/relay-call-kit.js';
import { relayCall } from '../../../../test/relay-call.js';
import type { Adaptor, Usage } from '../../adaptor.js';
import { callUsageOf } from '../../billing/call-usage.js';
import { compatibleAdaptors } from '../compatible/index.js';
import { doubao } from '../doubao/index.js';
import { openai } from './index.js';

type Json = Record<string, unknown>;

const chatCall = (stream = false) =>
  relayCall({ body: { model: 'some-model', messages: [{ role: 'user', content: 'hi' }], stream } });

/** A chat completion answer with this usage, read by the adaptor as a whole answer. */
function wholeUsage(adaptor: Adaptor, usage: Json): Usage | undefined {
  const answer = {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_750_000_000,
    model: 'some-model',
    choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.' }, finish_reason: 'stop' }],
    usage,
  };
  const response = {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(answer)),
  };
  return (adaptor.readResponse(response, chatCall(), fetchTools) as { usage?: Usage }).usage;
}

/** A stream ending with a usage chunk, as OpenAI-protocol vendors send it when asked (include_usage). */
function streamWith(usage: Json): string {
  const chunk = (choices: unknown[], extra: Json = {}) =>
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices, ...extra })}\n\n`;
  return (
    chunk([{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: null }]) +
    chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]) +
    chunk([], { usage }) +
    'data: [DONE]\n\n'
  );
}

/** The usage a forwarded stream's watcher reports, and the one the converting reader reports: the same. */
async function streamedUsage(adaptor: Adaptor, usage: Json): Promise<Usage | undefined> {
  const sse = streamWith(usage);
  const converted = (await collect(adaptor.readStream(pieces(sse), chatCall(true)))).usage;
  const watcher = adaptor.watchStream?.(chatCall(true));
  if (watcher) {
    for (const line of sse.split('\n')) if (line.startsWith('data: ')) watcher.payload(line.slice(6));
    expect(watcher.result().usage).toEqual(converted);
  }
  return converted;
}

describe('OpenAI chat usage, read in full', () => {
  test('OpenAI: cached prompt tokens and reasoning, whole and streamed', async () => {
    // https://platform.openai.com/docs/guides/prompt-caching (its usage example).
    const usage = {
      prompt_tokens: 2006,
      completion_tokens: 300,
      total_tokens: 2306,
      prompt_tokens_details: { cached_tokens: 1920 },
      completion_tokens_details: { reasoning_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    };
    const expected = {
      prompt_tokens: 2006,
      completion_tokens: 300,
      total_tokens: 2306,
      prompt_tokens_details: { cached_tokens: 1920 },
    };
    expect(wholeUsage(openai, usage)).toEqual(expected);
    expect(await streamedUsage(openai, usage)).toEqual(expected);
    expect(callUsageOf(expected)).toEqual({ input: 86, cache_read: 1920, output: 300 });
  });

  test('OpenAI audio: audio tokens in and out, apart from the text', async () => {
    // The usage fields of https://platform.openai.com/docs/api-reference/chat/object (gpt-4o-audio-preview).
    const usage = {
      prompt_tokens: 1067,
      completion_tokens: 420,
      total_tokens: 1487,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 1024 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 350 },
    };
    const read = wholeUsage(openai, usage)!;
    expect(read).toEqual({
      prompt_tokens: 1067,
      completion_tokens: 420,
      total_tokens: 1487,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 1024 },
      completion_tokens_details: { audio_tokens: 350 },
    });
    expect(await streamedUsage(openai, usage)).toEqual(read);
    expect(callUsageOf(read)).toEqual({ input: 43, input_audio: 1024, output: 70, output_audio: 350 });
  });

  test('DeepSeek: its cache hits (prompt_cache_hit_tokens) and the reasoner’s reasoning tokens', async () => {
    // https://api-docs.deepseek.com/api/create-chat-completion (usage) and
    // https://api-docs.deepseek.com/guides/kv_cache: hit + miss = prompt_tokens.
    const usage = {
      prompt_tokens: 1540,
      completion_tokens: 812,
      total_tokens: 2352,
      prompt_cache_hit_tokens: 1280,
      prompt_cache_miss_tokens: 260,
      completion_tokens_details: { reasoning_tokens: 640 },
    };
    const read = wholeUsage(compatibleAdaptors.deepseek, usage)!;
    expect(read).toEqual({
      prompt_tokens: 1540,
      completion_tokens: 812,
      total_tokens: 2352,
      prompt_tokens_details: { cached_tokens: 1280 },
      completion_tokens_details: { reasoning_tokens: 640 },
    });
    expect(await streamedUsage(compatibleAdaptors.deepseek, usage)).toEqual(read);
    expect(callUsageOf(read)).toEqual({ input: 260, cache_read: 1280, output: 812 });
  });

  test('Moonshot: cached_tokens beside the totals', async () => {
    // Kimi's automatic context cache reports its hits as usage.cached_tokens
    // (https://platform.moonshot.ai/docs/api/chat#chat-completion).
    const usage = { prompt_tokens: 3210, completion_tokens: 95, total_tokens: 3305, cached_tokens: 3072 };
    const read = wholeUsage(compatibleAdaptors.moonshot, usage)!;
    expect(read.prompt_tokens_details).toEqual({ cached_tokens: 3072 });
    expect(callUsageOf(read)).toEqual({ input: 138, cache_read: 3072, output: 95 });
  });

  test('Qwen (DashScope compatible mode): an explicit cache write, counted in the prompt', async () => {
    // https://www.alibabacloud.com/help/en/model-studio/context-cache (explicit cache, the first request).
    const usage = {
      prompt_tokens: 29_719,
      completion_tokens: 435,
      total_tokens: 30_154,
      completion_tokens_details: { reasoning_tokens: 382, text_tokens: 435 },
      prompt_tokens_details: {
        text_tokens: 29_719,
        cache_creation: { ephemeral_5m_input_tokens: 29_713 },
        cache_creation_input_tokens: 29_713,
        cache_type: 'ephemeral',
        cached_tokens: 0,
      },
    };
    const read = wholeUsage(compatibleAdaptors.openaiCompatible, usage)!;
    expect(read).toEqual({
      prompt_tokens: 29_719,
      completion_tokens: 435,
      total_tokens: 30_154,
      completion_tokens_details: { reasoning_tokens: 382 },
      cache_creation_input_tokens: 29_713,
    });
    expect(callUsageOf(read)).toEqual({ input: 6, cache_write: 29_713, output: 435 });
  });

  test('OpenRouter: cache writes as cache_write_tokens', async () => {
    // https://openrouter.ai/docs/use-cases/usage-accounting (its response example).
    const usage = {
      completion_tokens: 2,
      completion_tokens_details: { reasoning_tokens: 0 },
      cost: 0.95,
      cost_details: { upstream_inference_cost: 19 },
      prompt_tokens: 194,
      prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 100, audio_tokens: 0 },
      total_tokens: 196,
    };
    const read = wholeUsage(compatibleAdaptors.openrouter, usage)!;
    expect(read).toEqual({
      prompt_tokens: 194,
      completion_tokens: 2,
      total_tokens: 196,
      cache_creation_input_tokens: 100,
    });
    expect(await streamedUsage(compatibleAdaptors.openrouter, usage)).toEqual(read);
    expect(callUsageOf(read)).toEqual({ input: 94, cache_write: 100, output: 2 });
  });

  test('xAI: text, image and cached prompt tokens; reasoning', async () => {
    // The usage fields of https://docs.x.ai/docs/api-reference#chat-completions.
    const usage = {
      prompt_tokens: 1290,
      completion_tokens: 305,
      total_tokens: 1595,
      prompt_tokens_details: { text_tokens: 34, audio_tokens: 0, image_tokens: 1256, cached_tokens: 6 },
      completion_tokens_details: {
        reasoning_tokens: 260,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
      num_sources_used: 0,
    };
    const read = wholeUsage(compatibleAdaptors.xai, usage)!;
    expect(read.prompt_tokens_details).toEqual({ cached_tokens: 6, image_tokens: 1256 });
    expect(read.completion_tokens_details).toEqual({ reasoning_tokens: 260 });
    expect(callUsageOf(read)).toEqual({ input: 28, cache_read: 6, input_image: 1256, output: 305 });
  });

  test('Doubao reports OpenAI’s fields, read whole and streamed', async () => {
    // Ark's Chat API reference (https://www.volcengine.com/docs/82379): prompt_tokens_details.cached_tokens and
    // completion_tokens_details.reasoning_tokens.
    const usage = {
      prompt_tokens: 2200,
      completion_tokens: 180,
      total_tokens: 2380,
      prompt_tokens_details: { cached_tokens: 2048 },
      completion_tokens_details: { reasoning_tokens: 120 },
    };
    const expected = { ...usage };
    expect(wholeUsage(doubao, usage)).toEqual(expected);
    expect(await streamedUsage(doubao, usage)).toEqual(expected);
  });

  test('a plain usage keeps its plain shape', () => {
    expect(wholeUsage(openai, { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 })).toEqual({
      prompt_tokens: 12,
      completion_tokens: 3,
      total_tokens: 15,
    });
  });
});
