// The Messages API's request schemas live in the shared wire package (they describe /v1 for the OpenAPI document).
export { anthropicBodyProblem, anthropicCountTokensBody, anthropicMessagesBody } from '@modelgate/wire';

import { isIntegerIn, isNumberIn, isObject, isStringUpTo, isText, type Json } from './body-checks.js';

const isNonNegativeInteger = (value: unknown) => isIntegerIn(value, 0, Number.MAX_SAFE_INTEGER);

/** A block of the kinds the front converts, with that kind's fields; any other kind only needs its `type`. */
function blockPasses(block: unknown): boolean {
  if (!isObject(block)) return false;
  const type = block.type;
  if (typeof type !== 'string' || type.length < 1 || type.length > 64) return false;
  switch (type) {
    case 'text':
      return isText(block.text);
    case 'image':
    case 'document':
      return isObject(block.source) && typeof block.source.type === 'string';
    case 'tool_use':
      return isStringUpTo(block.id, 256) && isStringUpTo(block.name, 256) && isObject(block.input);
    case 'tool_result': {
      if (!isStringUpTo(block.tool_use_id, 256)) return false;
      const content = block.content;
      if (content === undefined || isText(content)) return true;
      return Array.isArray(content) && content.every((part) => isObject(part) && typeof part.type === 'string');
    }
    case 'thinking':
      return isText(block.thinking);
    case 'redacted_thinking':
      return isText(block.data);
    default:
      return true;
  }
}

const contentPasses = (content: unknown) =>
  typeof content === 'string' || (Array.isArray(content) && content.length <= 10_000 && content.every(blockPasses));

const roles: ReadonlySet<unknown> = new Set(['user', 'assistant', 'system']);
const toolChoiceTypes: ReadonlySet<unknown> = new Set(['auto', 'any', 'tool', 'none']);

/**
 * Whether `body` certainly passes `anthropicMessagesBody`, read field by field without building zod's copy of
 * the whole conversation (Claude Code sends tens of tools and hundreds of blocks on every turn). It answers
 * false for anything it is not sure of; the schema then decides, and words the refusal.
 */
export function anthropicMessagesPasses(body: unknown): body is Json {
  if (!isObject(body)) return false;
  const { model, max_tokens, messages, system, stream, temperature, top_p, top_k, stop_sequences } = body;
  if (typeof model !== 'string' || model.length < 1 || model.length > 200) return false;
  if (!isIntegerIn(max_tokens, 1, 1_073_741_823)) return false;
  if (!Array.isArray(messages) || messages.length < 1 || messages.length > 10_000) return false;
  for (const message of messages)
    if (!isObject(message) || !roles.has(message.role) || !contentPasses(message.content)) return false;
  if (system !== undefined && typeof system !== 'string' && !(Array.isArray(system) && system.every(blockPasses)))
    return false;
  if (stream !== undefined && typeof stream !== 'boolean') return false;
  if (temperature !== undefined && !isNumberIn(temperature, 0, 2)) return false;
  if (top_p !== undefined && !isNumberIn(top_p, 0, 1)) return false;
  if (top_k !== undefined && !isNonNegativeInteger(top_k)) return false;
  if (
    stop_sequences !== undefined &&
    !(
      Array.isArray(stop_sequences) &&
      stop_sequences.length <= 16 &&
      stop_sequences.every((s) => isStringUpTo(s, 1000))
    )
  )
    return false;
  const { tools, tool_choice, metadata } = body;
  if (
    tools !== undefined &&
    !(
      Array.isArray(tools) &&
      tools.length <= 512 &&
      tools.every(
        (tool) => isObject(tool) && typeof tool.name === 'string' && tool.name.length >= 1 && tool.name.length <= 128,
      )
    )
  )
    return false;
  if (
    tool_choice !== undefined &&
    !(
      isObject(tool_choice) &&
      toolChoiceTypes.has(tool_choice.type) &&
      (tool_choice.name === undefined || typeof tool_choice.name === 'string')
    )
  )
    return false;
  if (
    metadata !== undefined &&
    !(isObject(metadata) && (metadata.user_id === undefined || isStringUpTo(metadata.user_id, 256)))
  )
    return false;
  return true;
}
