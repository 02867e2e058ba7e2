import type { ChatRequest } from './chat-types.js';

/**
 * OpenAI's reasoning effort (chat `reasoning_effort`, Responses `reasoning.effort`); `none` is gpt-5.1's
 * "no reasoning". https://platform.openai.com/docs/api-reference/chat/create#chat-create-reasoning_effort
 */
export type ReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high';

const efforts: ReadonlySet<string> = new Set(['none', 'minimal', 'low', 'medium', 'high']);

/**
 * The thinking budget (tokens) each effort stands for, on Claude (`thinking.budget_tokens`) and Gemini 2.5
 * (`thinkingConfig.thinkingBudget`) alike: low, medium and high are Google's own mapping for its OpenAI
 * endpoint (https://ai.google.dev/gemini-api/docs/openai#thinking: 1K, 8K, 24K); minimal is Claude's smallest
 * budget (https://docs.claude.com/en/docs/build-with-claude/extended-thinking), which Gemini 2.5 also takes.
 */
export const thinkingBudgets: Record<Exclude<ReasoningEffort, 'none'>, number> = {
  minimal: 1024,
  low: 1024,
  medium: 8192,
  high: 24576,
};

/** The request's reasoning effort, if it names a known one. */
export function reasoningEffortOf(request: ChatRequest): ReasoningEffort | undefined {
  const effort = (request as { reasoning_effort?: unknown }).reasoning_effort;
  return typeof effort === 'string' && efforts.has(effort) ? (effort as ReasoningEffort) : undefined;
}

/**
 * A thinking budget as the effort an OpenAI reasoning model takes (the Anthropic front's `budget_tokens`, the
 * Gemini front's `thinkingBudget`): 0 is the least there is, up to 1K low, up to 8K medium, more high.
 */
export function effortForBudget(budget: number): ReasoningEffort {
  if (budget <= 0) return 'minimal';
  if (budget <= thinkingBudgets.low) return 'low';
  if (budget <= thinkingBudgets.medium) return 'medium';
  return 'high';
}
