import { outputLimitOf } from '../../../domain/pricing/output-limits.js';
import type { RelayCall } from '../../adaptor.js';

type Json = Record<string, unknown>;

/**
 * OpenAI's reasoning models (o1, o3, o4-mini, gpt-5 but its chat variant): their chat completions take the
 * output limit only as `max_completion_tokens`, and refuse sampling parameters other than their defaults.
 */
const reasoningModel = /(^|\/)(o1|o3|o4)(-|$)|(^|\/)gpt-5(?!(\.\d+)?-chat)/;

/**
 * The parameters reasoning models refuse, with the only value they accept (absent: none is accepted).
 * https://platform.openai.com/docs/guides/reasoning#limitations
 */
const refusedByReasoning: [field: string, accepted?: unknown][] = [
  ['temperature', 1],
  ['top_p', 1],
  ['presence_penalty', 0],
  ['frequency_penalty', 0],
  ['logprobs'],
  ['top_logprobs'],
  ['logit_bias'],
];

const outputLimitFields = ['max_tokens', 'max_completion_tokens'] as const;

/**
 * A chat body in the dialect of the model it goes to, or the same object when it already speaks it: output
 * limits above the model's (Claude Code asks 128,000; gpt-4o writes at most 16,384) lowered to it, and for a
 * reasoning model `max_tokens` renamed and the parameters it refuses left out. OpenAI answers 400 otherwise.
 * With `reasoning_effort: "none"` (gpt-5.1 and later) the sampling parameters are accepted again.
 */
export function chatBodyForModel(body: Json, model: string): Json {
  let fitted = body;
  const change = () => (fitted === body ? (fitted = { ...body }) : fitted);
  const limit = outputLimitOf(model);
  for (const field of outputLimitFields) {
    const value = fitted[field];
    if (limit !== undefined && typeof value === 'number' && value > limit) change()[field] = limit;
  }
  if (!reasoningModel.test(model.toLowerCase())) return fitted;
  if (fitted.max_tokens !== undefined) {
    const { max_tokens: given, ...rest } = fitted;
    fitted = rest;
    if (rest.max_completion_tokens === undefined && given !== null) fitted.max_completion_tokens = given;
  }
  if (fitted.reasoning_effort === 'none') return fitted;
  for (const [field, accepted] of refusedByReasoning) {
    const value = fitted[field];
    if (value !== undefined && value !== accepted) delete change()[field];
  }
  return fitted;
}

/** The call with its chat body in the model's dialect (chatBodyForModel); other calls as they are. */
export function inModelDialect(call: RelayCall): RelayCall {
  if (call.mode !== 'chat' || call.body.kind !== 'json') return call;
  const value = chatBodyForModel(call.body.value, call.model);
  return value === call.body.value ? call : { ...call, body: { ...call.body, value, changed: true } };
}
