import type { Usage } from '../../adaptor.js';
import { isObject } from './json.js';
import { countOf, usageOf, withUsageParts } from './usage.js';

/** The usage of an image answer that says nothing but its pictures: their number, for a per-image price. */
export const imagesUsage = (images: number): Usage => {
  const usage = usageOf(0, 0);
  if (images > 0) usage.images = images;
  return usage;
};

/**
 * An OpenAI-shaped images answer's usage: the pictures in `data`, and for gpt-image models their tokens
 * (https://platform.openai.com/docs/api-reference/images/object): text and image input, image output (an
 * answer without an output breakdown has only image tokens there).
 */
export function readImagesUsage(payload: Record<string, unknown>): Usage {
  const usage = imagesUsage(Array.isArray(payload.data) ? payload.data.length : 0);
  if (!isObject(payload.usage)) return usage;
  const input = countOf(payload.usage.input_tokens);
  const output = countOf(payload.usage.output_tokens);
  usage.prompt_tokens = input;
  usage.completion_tokens = output;
  usage.total_tokens = countOf(payload.usage.total_tokens) || input + output;
  const inputDetails = isObject(payload.usage.input_tokens_details) ? payload.usage.input_tokens_details : {};
  const outputDetails = payload.usage.output_tokens_details;
  return withUsageParts(usage, {
    promptImage: countOf(inputDetails.image_tokens),
    completionImage: isObject(outputDetails) ? countOf(outputDetails.image_tokens) : output,
  });
}

/**
 * A transcription's or translation's usage (https://platform.openai.com/docs/api-reference/audio/json-object):
 * seconds of audio for the models billed by duration (whisper-1), tokens with their audio part for the
 * models billed by token (gpt-4o-transcribe); undefined when the answer has none.
 */
export function readTranscriptionUsage(value: unknown): Usage | undefined {
  if (!isObject(value)) return undefined;
  if (value.type === 'duration') {
    const seconds = countOf(value.seconds);
    return seconds ? { ...usageOf(0, 0), audio_seconds: seconds } : undefined;
  }
  if (value.type !== 'tokens') return undefined;
  const input = countOf(value.input_tokens);
  const output = countOf(value.output_tokens);
  const details = isObject(value.input_token_details) ? value.input_token_details : {};
  return withUsageParts(usageOf(input, output, countOf(value.total_tokens)), {
    promptAudio: countOf(details.audio_tokens),
  });
}
