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

/** Seconds of audio as billed: whole seconds, rounded up (OpenAI prices whisper-1 per second). */
const secondsUsage = (value: unknown): Usage | undefined => {
  const seconds = Math.ceil(countOf(value));
  return seconds ? { ...usageOf(0, 0), audio_seconds: seconds } : undefined;
};

/**
 * A transcription's or translation's usage (https://platform.openai.com/docs/api-reference/audio/json-object):
 * seconds of audio for the models billed by duration (whisper-1: `usage.seconds`, or in a verbose_json answer
 * its top-level `duration`, https://platform.openai.com/docs/api-reference/audio/verbose-json-object), tokens
 * with their audio part for the models billed by token (gpt-4o-transcribe); undefined when the answer has none.
 */
export function readTranscriptionUsage(transcript: Record<string, unknown>): Usage | undefined {
  const value = isObject(transcript.usage) ? transcript.usage : {};
  if (value.type !== 'tokens')
    return (value.type === 'duration' ? secondsUsage(value.seconds) : undefined) ?? secondsUsage(transcript.duration);
  const input = countOf(value.input_tokens);
  const output = countOf(value.output_tokens);
  const details = isObject(value.input_token_details) ? value.input_token_details : {};
  return withUsageParts(usageOf(input, output, countOf(value.total_tokens)), {
    promptAudio: countOf(details.audio_tokens),
  });
}
