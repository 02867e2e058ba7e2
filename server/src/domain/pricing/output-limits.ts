/**
 * The most output tokens a model writes in one answer, by model name, as its vendor documents it for the
 * default request (a larger limit behind a beta flag, Claude 3.7 Sonnet's 128k, is not counted). A call
 * without `max_tokens` is held for its prompt plus this much output, and a cap set by the balance never
 * exceeds it (the vendor would refuse a larger one). First match wins, so longer names come before their
 * prefixes. Neither @pydantic/genai-prices (context windows only) nor models.dev's cost fields carry it.
 */
const limits: [RegExp, number][] = [
  [/claude-3-7-sonnet/, 64_000],
  [/claude-3-5-(sonnet|haiku)/, 8192],
  [/claude-3-(opus|sonnet|haiku)/, 4096],
  [/claude-opus-4-5|claude-opus-4-6/, 64_000],
  [/claude-opus-4/, 32_000],
  [/claude-(sonnet|haiku)-4/, 64_000],
  [/gpt-5/, 128_000],
  [/gpt-4\.1/, 32_768],
  [/gpt-4o|chatgpt-4o/, 16_384],
  [/gpt-4-turbo|gpt-4-\d{4}-preview/, 4096],
  [/gpt-4-32k/, 8192],
  [/gpt-4(-\d{4})?$/, 8192],
  [/gpt-3\.5-turbo/, 4096],
  [/(^|\/)o1-mini/, 65_536],
  [/(^|\/)o(1|3|4)(-mini|-pro)?($|-)/, 100_000],
  [/gemini-(2\.5|3)/, 65_536],
  [/gemini-(2\.0|1\.5)/, 8192],
  [/deepseek-reasoner/, 64_000],
  [/deepseek-chat/, 8192],
];

/** The model's output limit, or undefined for a model not listed (its vendor's limit is not known here). */
export function outputLimitOf(model: string): number | undefined {
  const name = model.toLowerCase();
  for (const [pattern, limit] of limits) if (pattern.test(name)) return limit;
  return undefined;
}
