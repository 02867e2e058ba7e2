import { createRequire } from 'node:module';
import { decodedByteLength, nodeValue, type OutlineNode } from '../../lib/json-outline.js';
import type { RelayMode } from '../adaptor.js';
import type { JobBody } from '../pipeline/relay-job.js';

type CountTokens = (text: string, options: { allowedSpecial: 'all' }) => number;

const require = createRequire(import.meta.url);
const encodings = new Map<string, CountTokens>();

/**
 * An encoding's counter, loaded on first use: each BPE table costs 40 to 65 MiB of memory, and a gateway whose
 * upstreams report usage may never need one (the estimate before a call is counted the same way, so the
 * table of the models actually served is loaded once, at the first call).
 */
function encoding(name: 'cl100k_base' | 'o200k_base'): CountTokens {
  let count = encodings.get(name);
  if (!count) {
    count = (require(`gpt-tokenizer/cjs/encoding/${name}`) as { countTokens: CountTokens }).countTokens;
    encodings.set(name, count);
  }
  return count;
}

/** Whether a model uses the o200k encoding (gpt-4o family, o-series); everything else is counted with cl100k. */
const usesO200k = (model: string) => /^(gpt-4o|chatgpt-4o|o1|o3|o4|gpt-4\.1|gpt-4\.5)/.test(model);

const options = { allowedSpecial: 'all' } as const;

/** Tokens of a text for a model; with ApproximateTokenEnabled, one-api's bytes × 0.38. */
export function countText(text: string, model: string, approximate = false): number {
  if (!text) return 0;
  if (approximate) return Math.floor(Buffer.byteLength(text) * 0.38);
  return encoding(usesO200k(model) ? 'o200k_base' : 'cl100k_base')(text, options);
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Tokens of an image part without fetching it (one-api downloaded every image during counting): `low`
 * detail is the base cost, any other detail is priced as a 1024×1024 image (4 tiles).
 */
function imageTokens(part: Json, model: string): number {
  const detail = isObject(part.image_url) ? part.image_url.detail : undefined;
  const mini = model.startsWith('gpt-4o-mini');
  const base = mini ? 2833 : 85;
  const perTile = mini ? 5667 : 170;
  return detail === 'low' ? base : base + perTile * 4;
}

/** one-api's chat prompt count: 3 per message (4 for 0301), role, content, name, plus 3 for the reply. */
export function countMessages(messages: unknown, model: string, approximate = false): number {
  if (!Array.isArray(messages)) return 0;
  const perMessage = model === 'gpt-3.5-turbo-0301' ? 4 : 3;
  const perName = model === 'gpt-3.5-turbo-0301' ? -1 : 1;
  let total = 0;
  for (const message of messages) {
    if (!isObject(message)) continue;
    total += perMessage;
    if (typeof message.role === 'string') total += countText(message.role, model, approximate);
    if (typeof message.name === 'string') total += countText(message.name, model, approximate) + perName;
    const content = message.content;
    if (typeof content === 'string') total += countText(content, model, approximate);
    else if (Array.isArray(content)) {
      for (const part of content) {
        if (!isObject(part)) continue;
        if (part.type === 'text' && typeof part.text === 'string') total += countText(part.text, model, approximate);
        else if (part.type === 'image_url') total += imageTokens(part, model);
      }
    }
  }
  return total + 3;
}

/**
 * countMessages' estimate (bytes × 0.38) of a conversation read from its outline (lib/json-outline.ts): the same
 * number, from the texts' byte lengths, without decoding them.
 */
export function estimateOutlinedMessages(raw: Buffer, messages: OutlineNode | undefined, model: string): number {
  if (messages?.type !== 'array') return 0;
  const perMessage = model === 'gpt-3.5-turbo-0301' ? 4 : 3;
  const perName = model === 'gpt-3.5-turbo-0301' ? -1 : 1;
  const estimate = (node: OutlineNode | undefined) =>
    node?.type === 'string' ? Math.floor(decodedByteLength(raw, node) * 0.38) : 0;
  let total = 0;
  for (const message of messages.items) {
    if (message.type !== 'object') continue;
    total += perMessage;
    total += estimate(message.members.get('role'));
    const name = message.members.get('name');
    if (name?.type === 'string') total += estimate(name) + perName;
    const content = message.members.get('content');
    if (content?.type === 'string') total += estimate(content);
    else if (content?.type === 'array') {
      for (const part of content.items) {
        if (part.type !== 'object') continue;
        const type = part.members.get('type');
        const kind = type?.type === 'string' ? nodeValue(raw, type) : undefined;
        if (kind === 'text') total += estimate(part.members.get('text'));
        else if (kind === 'image_url') total += imageTokens(nodeValue(raw, part) as Json, model);
      }
    }
  }
  return total + 3;
}

/**
 * Tokens of a completion prompt or an embeddings/moderation input: a string, an array of strings, an array
 * of token ids, or an array of such arrays (one-api counted every array as 0).
 */
export function countInput(input: unknown, model: string, approximate = false): number {
  if (typeof input === 'string') return countText(input, model, approximate);
  if (!Array.isArray(input)) return 0;
  let total = 0;
  for (const item of input) {
    if (typeof item === 'string') total += countText(item, model, approximate);
    else if (typeof item === 'number') total += 1;
    else if (Array.isArray(item)) total += countInput(item, model, approximate);
  }
  return total;
}

/**
 * A call's prompt as its hold and its tokens limit count it: one-api's estimate (bytes × 0.38). An outlined
 * conversation (an agent's long one) is measured on its bytes, never decoded for it.
 */
export function estimatePrompt(body: JobBody, mode: RelayMode, model: string): number {
  if (body.kind !== 'json') return 0;
  if (mode === 'chat')
    return body.outline
      ? estimateOutlinedMessages(body.raw, body.outline.members.get('messages'), model)
      : countMessages(body.value.messages, model, true);
  return countInput(mode === 'completions' ? body.value.prompt : body.value.input, model, true);
}
