import type { Usage } from '../../adaptor.js';
import { isObject } from './json.js';

/** A usage object from prompt and completion counts (total derived when the upstream gave none or zero). */
export function usageOf(prompt: number, completion: number, total?: number): Usage {
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total || prompt + completion };
}

/** OpenAI's `usage` field read defensively: numeric counts (cached prompt tokens when any), or undefined. */
export function readUsage(value: unknown): Usage | undefined {
  if (!isObject(value)) return undefined;
  const prompt = Number(value.prompt_tokens ?? 0);
  const completion = Number(value.completion_tokens ?? 0);
  const total = Number(value.total_tokens ?? prompt + completion);
  if (![prompt, completion, total].every(Number.isFinite)) return undefined;
  const usage: Usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total };
  const cached = isObject(value.prompt_tokens_details) ? Number(value.prompt_tokens_details.cached_tokens) : 0;
  if (cached > 0) usage.prompt_tokens_details = { cached_tokens: cached };
  return usage;
}
