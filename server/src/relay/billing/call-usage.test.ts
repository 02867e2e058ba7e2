import { describe, expect, test } from 'vitest';
import { promptTokens } from '../../domain/pricing/price.js';
import type { Usage } from '../adaptor.js';
import { callUsageOf } from './call-usage.js';

const usage = (prompt: number, completion: number, parts: Partial<Usage> = {}): Usage => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
  ...parts,
});

describe('callUsageOf', () => {
  test('a plain call is input and output', () => {
    expect(callUsageOf(usage(12, 5))).toEqual({ input: 12, output: 5 });
  });

  test('the prompt is partitioned: cache writes (1 hour apart), cache reads, audio, image, the rest as input', () => {
    const reported = usage(10_000, 900, {
      cache_creation_input_tokens: 3000,
      cache_creation_1h_input_tokens: 1000,
      prompt_tokens_details: { cached_tokens: 4000, audio_tokens: 700, image_tokens: 300 },
      completion_tokens_details: { reasoning_tokens: 400, audio_tokens: 200, image_tokens: 100 },
    });
    const classes = callUsageOf(reported);
    expect(classes).toEqual({
      input: 10_000 - 3000 - 4000 - 700 - 300,
      cache_write: 2000,
      cache_write_1h: 1000,
      cache_read: 4000,
      input_audio: 700,
      input_image: 300,
      // Reasoning is output: it stays in `output`.
      output: 900 - 200 - 100,
      output_audio: 200,
      output_image: 100,
    });
    expect(promptTokens(classes)).toBe(10_000);
  });

  test('Anthropic: the 1-hour writes are apart from the 5-minute ones', () => {
    // https://docs.claude.com/en/docs/build-with-claude/prompt-caching (the 1-hour cache example), as claudeUsage
    // reads it: 2048 uncached + 248 written (100 for 1 hour) + 1800 read.
    const reported = usage(2048 + 248 + 1800, 503, {
      cache_creation_input_tokens: 248,
      cache_creation_1h_input_tokens: 100,
      prompt_tokens_details: { cached_tokens: 1800 },
    });
    expect(callUsageOf(reported)).toEqual({
      input: 2048,
      cache_write: 148,
      cache_write_1h: 100,
      cache_read: 1800,
      output: 503,
    });
  });

  test('an inconsistent report is cut to its totals, never more tokens than the vendor counted', () => {
    // More cached than the whole prompt, a 1-hour part larger than the writes, more audio than the output.
    const reported = usage(100, 10, {
      cache_creation_input_tokens: 30,
      cache_creation_1h_input_tokens: 50,
      prompt_tokens_details: { cached_tokens: 500, audio_tokens: 40 },
      completion_tokens_details: { audio_tokens: 25 },
    });
    const classes = callUsageOf(reported);
    expect(classes).toEqual({ input: 0, cache_write_1h: 30, cache_read: 70, output: 0, output_audio: 10 });
    expect(promptTokens(classes)).toBe(100);
  });

  test('negative, NaN and missing counts are none', () => {
    const reported = {
      prompt_tokens: -5,
      completion_tokens: Number.NaN,
      total_tokens: 0,
      prompt_tokens_details: { cached_tokens: -1 },
      web_search_requests: -2,
    } as Usage;
    expect(callUsageOf(reported)).toEqual({ input: 0, output: 0 });
  });

  test('per-unit counts: images, seconds of audio and web searches', () => {
    expect(callUsageOf(usage(0, 0, { images: 2 }))).toEqual({ input: 0, output: 0, images: 2 });
    expect(callUsageOf(usage(0, 0, { audio_seconds: 9 }))).toEqual({ input: 0, output: 0, audio_seconds: 9 });
    expect(callUsageOf(usage(2679, 120, { web_search_requests: 1 }))).toEqual({
      input: 2679,
      output: 120,
      web_searches: 1,
    });
  });
});
