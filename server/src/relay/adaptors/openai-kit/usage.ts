import type { Usage } from '../../adaptor.js';
import { isObject } from './json.js';

/** A usage object from prompt and completion counts (total derived when the upstream gave none or zero). */
export function usageOf(prompt: number, completion: number, total?: number): Usage {
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total || prompt + completion };
}

/** A count an upstream reported (a number or a numeric string), 0 when absent, negative or not a number. */
export function countOf(value: unknown): number {
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isFinite(number) && number > 0 ? number : 0;
}

/** What a vendor said of a call's tokens beyond the two totals (each part counted in its total already). */
export interface UsageParts {
  /** Prompt tokens read from the vendor's prompt cache. */
  cached?: number;
  /** Prompt tokens written to the vendor's cache, every TTL together. */
  cacheWritten?: number;
  /** The part of `cacheWritten` kept for 1 hour. */
  cacheWritten1h?: number;
  promptAudio?: number;
  promptImage?: number;
  reasoning?: number;
  completionAudio?: number;
  completionImage?: number;
  webSearches?: number;
}

/** `usage` with the parts the vendor reported, each field set only when above 0 (so a plain call keeps its shape). */
export function withUsageParts(usage: Usage, parts: UsageParts): Usage {
  const cached = countOf(parts.cached);
  const promptAudio = countOf(parts.promptAudio);
  const promptImage = countOf(parts.promptImage);
  if (cached || promptAudio || promptImage) {
    usage.prompt_tokens_details = { cached_tokens: cached };
    if (promptAudio) usage.prompt_tokens_details.audio_tokens = promptAudio;
    if (promptImage) usage.prompt_tokens_details.image_tokens = promptImage;
  }
  const reasoning = countOf(parts.reasoning);
  const completionAudio = countOf(parts.completionAudio);
  const completionImage = countOf(parts.completionImage);
  if (reasoning || completionAudio || completionImage) {
    usage.completion_tokens_details = {};
    if (reasoning) usage.completion_tokens_details.reasoning_tokens = reasoning;
    if (completionAudio) usage.completion_tokens_details.audio_tokens = completionAudio;
    if (completionImage) usage.completion_tokens_details.image_tokens = completionImage;
  }
  const written = countOf(parts.cacheWritten);
  if (written) usage.cache_creation_input_tokens = written;
  const written1h = Math.min(countOf(parts.cacheWritten1h), written);
  if (written1h) usage.cache_creation_1h_input_tokens = written1h;
  const searches = countOf(parts.webSearches);
  if (searches) usage.web_search_requests = searches;
  return usage;
}

const objectOf = (value: unknown): Record<string, unknown> => (isObject(value) ? value : {});

/**
 * The cache and modality parts of an OpenAI-style `prompt_tokens_details`, as OpenAI, xAI, Zhipu, Doubao
 * and DashScope's Qwen report them: cache reads, audio and image tokens, and cache writes (Qwen's explicit
 * cache, https://www.alibabacloud.com/help/en/model-studio/context-cache; OpenRouter's `cache_write_tokens`,
 * https://openrouter.ai/docs/use-cases/usage-accounting).
 */
export function promptDetailsParts(details: unknown): UsageParts {
  const prompt = objectOf(details);
  return {
    cached: countOf(prompt.cached_tokens),
    cacheWritten: countOf(prompt.cache_creation_input_tokens ?? prompt.cache_write_tokens),
    cacheWritten1h: countOf(objectOf(prompt.cache_creation).ephemeral_1h_input_tokens),
    promptAudio: countOf(prompt.audio_tokens),
    promptImage: countOf(prompt.image_tokens),
  };
}

/**
 * OpenAI's `usage` field read defensively: the numeric totals and every part the vendors of OpenAI's protocol
 * report (https://platform.openai.com/docs/api-reference/chat/object#chat/object-usage), or undefined.
 */
export function readUsage(value: unknown): Usage | undefined {
  if (!isObject(value)) return undefined;
  const prompt = Number(value.prompt_tokens ?? 0);
  const completion = Number(value.completion_tokens ?? 0);
  const total = Number(value.total_tokens ?? prompt + completion);
  if (![prompt, completion, total].every(Number.isFinite)) return undefined;
  const usage: Usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total };
  // Read field by field (promptDetailsParts' rules), without the intermediate objects: every answer has a usage.
  const details = isObject(value.prompt_tokens_details) ? value.prompt_tokens_details : undefined;
  const completionDetails = isObject(value.completion_tokens_details) ? value.completion_tokens_details : undefined;
  const cacheWritten = countOf(details?.cache_creation_input_tokens ?? details?.cache_write_tokens);
  const cacheCreation = details && isObject(details.cache_creation) ? details.cache_creation : undefined;
  const cacheWritten1h = countOf(cacheCreation?.ephemeral_1h_input_tokens);
  return withUsageParts(usage, {
    // Moonshot reports its cache hits beside the totals, DeepSeek as prompt_cache_hit_tokens
    // (https://api-docs.deepseek.com/guides/kv_cache): read when prompt_tokens_details does not say.
    cached:
      details?.cached_tokens != null
        ? countOf(details.cached_tokens)
        : countOf(value.cached_tokens ?? value.prompt_cache_hit_tokens),
    // A one-api-compatible gateway upstream (ModelGate itself) reports a Claude call's cache writes and
    // searches beside the totals.
    cacheWritten: cacheWritten || countOf(value.cache_creation_input_tokens),
    cacheWritten1h: cacheWritten1h || countOf(value.cache_creation_1h_input_tokens),
    promptAudio: countOf(details?.audio_tokens),
    promptImage: countOf(details?.image_tokens),
    reasoning: countOf(completionDetails?.reasoning_tokens),
    completionAudio: countOf(completionDetails?.audio_tokens),
    completionImage: countOf(completionDetails?.image_tokens),
    webSearches: countOf(value.web_search_requests),
  });
}
