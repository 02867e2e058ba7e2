import type { CallUsage } from '../../domain/pricing/price.js';
import type { Usage } from '../adaptor.js';

const count = (value: number | undefined) =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;

/**
 * The usage as the price model's token classes, which partition the call: the prompt's cache reads, cache
 * writes (1-hour apart from the rest), audio and image tokens each in their own class and the rest as
 * `input`; likewise the output. A detail larger than what is left of its total (a vendor's inconsistent
 * report) is cut to it, so the classes never add up to more tokens than the vendor reported.
 */
export function callUsageOf(usage: Usage): CallUsage {
  let prompt = count(usage.prompt_tokens);
  const take = (value: number | undefined) => {
    const taken = Math.min(count(value), prompt);
    prompt -= taken;
    return taken;
  };
  const written = count(usage.cache_creation_input_tokens);
  const cacheWrite1h = take(Math.min(count(usage.cache_creation_1h_input_tokens), written));
  const cacheWrite = take(written - cacheWrite1h);
  const cacheRead = take(usage.prompt_tokens_details?.cached_tokens);
  const inputAudio = take(usage.prompt_tokens_details?.audio_tokens);
  const inputImage = take(usage.prompt_tokens_details?.image_tokens);
  let completion = count(usage.completion_tokens);
  const takeOutput = (value: number | undefined) => {
    const taken = Math.min(count(value), completion);
    completion -= taken;
    return taken;
  };
  const outputAudio = takeOutput(usage.completion_tokens_details?.audio_tokens);
  const outputImage = takeOutput(usage.completion_tokens_details?.image_tokens);
  const result: CallUsage = { input: prompt, output: completion };
  if (cacheRead) result.cache_read = cacheRead;
  if (cacheWrite) result.cache_write = cacheWrite;
  if (cacheWrite1h) result.cache_write_1h = cacheWrite1h;
  if (inputAudio) result.input_audio = inputAudio;
  if (inputImage) result.input_image = inputImage;
  if (outputAudio) result.output_audio = outputAudio;
  if (outputImage) result.output_image = outputImage;
  if (count(usage.images)) result.images = count(usage.images);
  if (count(usage.audio_seconds)) result.audio_seconds = count(usage.audio_seconds);
  if (count(usage.web_search_requests)) result.web_searches = count(usage.web_search_requests);
  return result;
}
