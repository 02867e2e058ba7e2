import { outputLimitOf } from '../../../domain/pricing/output-limits.js';
import type { RelayCall } from '../../adaptor.js';
import { noteDropped } from '../../fronts/dropped-header.js';

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
 * OpenAI's chat models without reasoning, which refuse `reasoning_effort` ("Unrecognized request argument" /
 * "not supported with this model"); another model name keeps it (a reseller's model may read it).
 */
const nonReasoningModel = /(^|\/)(gpt-3\.5|gpt-4|chatgpt-4o)|(^|\/)gpt-5(\.\d+)?-chat/;

/**
 * A chat body in the dialect of the model it goes to, or the same object when it already speaks it: output
 * limits above the model's (Claude Code asks 128,000; gpt-4o writes at most 16,384) lowered to it, for a
 * reasoning model `max_tokens` renamed and the parameters it refuses left out, and for OpenAI's other chat
 * models `reasoning_effort` left out. OpenAI answers 400 otherwise. What is left out is put in `dropped`.
 * With `reasoning_effort: "none"` (gpt-5.1 and later) the sampling parameters are accepted again.
 */
export function chatBodyForModel(body: Json, model: string, dropped: string[] = []): Json {
  let fitted = body;
  const change = () => (fitted === body ? (fitted = { ...body }) : fitted);
  const limit = outputLimitOf(model);
  for (const field of outputLimitFields) {
    const value = fitted[field];
    if (limit !== undefined && typeof value === 'number' && value > limit) change()[field] = limit;
  }
  const name = model.toLowerCase();
  if (!reasoningModel.test(name)) {
    if (fitted.reasoning_effort !== undefined && nonReasoningModel.test(name)) {
      delete change().reasoning_effort;
      dropped.push('reasoning_effort');
    }
    return fitted;
  }
  if (fitted.max_tokens !== undefined) {
    const { max_tokens: given, ...rest } = fitted;
    fitted = rest;
    if (rest.max_completion_tokens === undefined && given !== null) fitted.max_completion_tokens = given;
  }
  if (fitted.reasoning_effort === 'none') return fitted;
  for (const [field, accepted] of refusedByReasoning) {
    const value = fitted[field];
    if (value === undefined || value === accepted) continue;
    delete change()[field];
    dropped.push(field);
  }
  return fitted;
}

/**
 * The call with its chat body in the model's dialect (chatBodyForModel), the parameters left out noted for
 * `x-modelgate-dropped`; other calls as they are.
 */
export function inModelDialect(call: RelayCall): RelayCall {
  if (call.mode !== 'chat' || call.body.kind !== 'json') return call;
  const dropped: string[] = [];
  const value = chatBodyForModel(call.body.value, call.model, dropped);
  noteDropped(call, dropped);
  return value === call.body.value ? call : { ...call, body: { ...call.body, value, changed: true } };
}
