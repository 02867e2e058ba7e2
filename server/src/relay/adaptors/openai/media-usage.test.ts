import { describe, expect, test } from 'vitest';
import { fetchTools } from '../../../../test/mock-upstreams/relay-call-kit.js';
import { relayCall } from '../../../../test/relay-call.js';
import type { Adaptor, RelayMode, Usage } from '../../adaptor.js';
import { callUsageOf } from '../../billing/call-usage.js';
import { zhipu } from '../zhipu/index.js';
import { openai } from './index.js';

const answer = (value: unknown) => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: Buffer.from(JSON.stringify(value)),
});

async function usageOf(
  mode: RelayMode,
  model: string,
  value: unknown,
  adaptor: Adaptor = openai,
): Promise<Usage | undefined> {
  const call = relayCall({ body: { model, prompt: 'a cat' }, mode });
  return (await adaptor.readResponse(answer(value), call, fetchTools)).usage;
}

describe('image and audio answers say what billing prices', () => {
  test('gpt-image-1: the pictures and their tokens (text and image in, image out)', async () => {
    // https://platform.openai.com/docs/api-reference/images/object (its example).
    const usage = await usageOf('images', 'gpt-image-1', {
      created: 1_713_833_628,
      data: [{ b64_json: 'iVBORw0' }],
      usage: {
        total_tokens: 100,
        input_tokens: 50,
        output_tokens: 50,
        input_tokens_details: { text_tokens: 10, image_tokens: 40 },
      },
    });
    expect(usage).toEqual({
      prompt_tokens: 50,
      completion_tokens: 50,
      total_tokens: 100,
      prompt_tokens_details: { cached_tokens: 0, image_tokens: 40 },
      completion_tokens_details: { image_tokens: 50 },
      images: 1,
    });
    expect(callUsageOf(usage!)).toEqual({ input: 10, input_image: 40, output: 0, output_image: 50, images: 1 });
  });

  test('dall-e-3 and CogView: only the pictures returned', async () => {
    const dallE = await usageOf('images', 'dall-e-3', {
      created: 1_713_833_628,
      data: [{ url: 'https://images.example/0.png' }, { url: 'https://images.example/1.png' }],
    });
    expect(dallE).toEqual({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, images: 2 });
    const cogView = await usageOf(
      'images',
      'cogview-3',
      { created: 1_703_485_556, data: [{ url: 'https://aigc-files.bigmodel.cn/api/cogview/cat.png' }] },
      zhipu,
    );
    expect(cogView).toMatchObject({ images: 1 });
  });

  test('transcriptions: seconds of audio (whisper-1), or tokens with their audio part (gpt-4o-transcribe)', async () => {
    // https://platform.openai.com/docs/api-reference/audio/json-object: usage by duration or by tokens.
    const whisper = await usageOf('audio-transcription', 'whisper-1', {
      text: 'Imagine the wildest idea that you have ever had.',
      usage: { type: 'duration', seconds: 9 },
    });
    expect(whisper).toEqual({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, audio_seconds: 9 });
    expect(callUsageOf(whisper!)).toEqual({ input: 0, output: 0, audio_seconds: 9 });
    const tokens = await usageOf('audio-transcription', 'gpt-4o-transcribe', {
      text: 'Imagine the wildest idea that you have ever had.',
      usage: {
        type: 'tokens',
        input_tokens: 14,
        input_token_details: { text_tokens: 0, audio_tokens: 14 },
        output_tokens: 45,
        total_tokens: 59,
      },
    });
    expect(callUsageOf(tokens!)).toEqual({ input: 0, input_audio: 14, output: 45 });
    expect(await usageOf('audio-transcription', 'whisper-1', { text: 'no usage' })).toBeUndefined();
  });

  test('whisper-1 seconds: verbose_json’s duration when there is no usage, rounded up to whole seconds', async () => {
    // https://platform.openai.com/docs/api-reference/audio/verbose-json-object: `duration` in seconds, a float.
    const verbose = {
      task: 'transcribe',
      language: 'english',
      duration: 8.470000267028809,
      text: 'The beach was a popular spot on a hot summer day.',
      segments: [{ id: 0, seek: 0, start: 0, end: 3.319999933242798, text: ' The beach was a popular spot' }],
    };
    expect(await usageOf('audio-transcription', 'whisper-1', verbose)).toEqual({
      prompt_tokens: 0,
      completion_tokens: 0,
      total_tokens: 0,
      audio_seconds: 9,
    });
    const both = { ...verbose, usage: { type: 'duration', seconds: 8.47 } };
    expect((await usageOf('audio-translation', 'whisper-1', both))?.audio_seconds).toBe(9);
    const json = { text: 'Hello.', usage: { type: 'duration', seconds: 2.01 } };
    expect((await usageOf('audio-transcription', 'whisper-1', json))?.audio_seconds).toBe(3);
    expect(await usageOf('audio-transcription', 'whisper-1', { text: '', duration: 0 })).toBeUndefined();
  });
});
