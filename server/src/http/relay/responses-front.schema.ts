// The Responses API's request schema lives in the shared wire package (it describes /v1 for the OpenAPI document).
export { responsesBodyProblem, responsesCreateBody } from '@modelgate/wire';

import {
  isArrayOf,
  isIntegerIn,
  isNumberIn,
  isObject,
  isStringUpTo,
  isText,
  isTyped,
  nullable,
  optional,
} from './body-checks.js';

const isBoolean = (value: unknown) => typeof value === 'boolean';

/** An `input` item: `type` and `role` optional, content text, typed parts, or null. */
const inputItemPasses = (item: unknown) =>
  isObject(item) &&
  optional(item.type, (type) => typeof type === 'string' && type.length >= 1 && type.length <= 64) &&
  optional(item.role, (role) => isStringUpTo(role, 32)) &&
  nullable(item.content, (content) => isText(content) || isArrayOf(content, 10_000, isTyped));

const toolChoices: ReadonlySet<unknown> = new Set(['auto', 'none', 'required']);

/**
 * Whether `body` certainly passes `responsesCreateBody`, read field by field without building zod's copy of the
 * whole conversation (Codex sends its whole history on every turn). False for anything it is not sure of: the
 * schema then decides, and words the refusal.
 */
export function responsesCreatePasses(body: unknown): boolean {
  if (!isObject(body)) return false;
  const { model, input, instructions, previous_response_id, store, background, stream, tools, tool_choice } = body;
  return (
    typeof model === 'string' &&
    model.length >= 1 &&
    model.length <= 200 &&
    optional(input, (value) => isText(value) || isArrayOf(value, 10_000, inputItemPasses)) &&
    nullable(instructions, isText) &&
    nullable(previous_response_id, (id) => typeof id === 'string' && id.length >= 1 && id.length <= 200) &&
    nullable(store, isBoolean) &&
    nullable(background, isBoolean) &&
    nullable(stream, isBoolean) &&
    optional(tools, (value) => isArrayOf(value, 512, isTyped)) &&
    optional(tool_choice, (choice) => toolChoices.has(choice) || isTyped(choice)) &&
    restPasses(body)
  );
}

function restPasses(body: Record<string, unknown>): boolean {
  const { parallel_tool_calls, text, reasoning, max_output_tokens, temperature, top_p, user, metadata, include } = body;
  return (
    nullable(parallel_tool_calls, isBoolean) &&
    optional(text, (value) => isObject(value) && optional(value.format, isTyped)) &&
    nullable(
      reasoning,
      (value) =>
        isObject(value) &&
        nullable(value.effort, (effort) => isStringUpTo(effort, 32)) &&
        nullable(value.summary, (summary) => isStringUpTo(summary, 32)),
    ) &&
    nullable(max_output_tokens, (value) => isIntegerIn(value, 1, 1_073_741_823)) &&
    nullable(temperature, (value) => isNumberIn(value, 0, 2)) &&
    nullable(top_p, (value) => isNumberIn(value, 0, 1)) &&
    optional(user, (value) => isStringUpTo(value, 256)) &&
    nullable(
      metadata,
      (value) =>
        isObject(value) && Object.entries(value).every(([key, entry]) => key.length <= 64 && isStringUpTo(entry, 512)),
    ) &&
    nullable(include, (value) => isArrayOf(value, 64, (name) => isStringUpTo(name, 128)))
  );
}
