import type { RelayBody, RelayMode } from '../adaptor.js';
import type { RoutedChannel } from '../routing/channel-router.js';
import { ChannelType } from '../../domain/channel/channel.constants.js';
import type { JobBody } from './relay-job.js';
import { lazyCopy, type OutlineObject } from '../../lib/json-outline.js';

type Json = Record<string, unknown>;

/**
 * A multipart upload with its `model` field replaced (the channel's model mapping), re-encoded; the other
 * parts, files included, are kept as they came.
 */
export async function remapMultipart(
  form: FormData,
  upstreamModel: string,
): Promise<{ raw: Buffer; contentType: string }> {
  const mapped = new FormData();
  for (const [name, value] of form.entries()) mapped.append(name, name === 'model' ? upstreamModel : value);
  const encoded = new Response(mapped);
  return {
    raw: Buffer.from(await encoded.arrayBuffer()),
    contentType: encoded.headers.get('content-type') ?? 'multipart/form-data',
  };
}

/** The output limits a chat or completion request may carry, newest first. */
const outputLimitFields = ['max_completion_tokens', 'max_tokens', 'max_output_tokens'] as const;

/**
 * Channel types whose API takes `max_completion_tokens`, the only limit OpenAI's reasoning models accept; other
 * OpenAI-protocol vendors read `max_tokens`.
 */
const completionLimitChannelTypes: ReadonlySet<number> = new Set([ChannelType.OpenAI, ChannelType.Azure]);

/**
 * The body for one channel: the model mapped, the channel's system prompt forced, stream usage asked for,
 * and the output capped at `outputCap` when the balance set one (every limit the client gave, or the
 * channel's own field when it gave none). Untouched requests keep the client's bytes (one-api forwards them as
 * they came) unless `alwaysReserialise` (ENFORCE_INCLUDE_USAGE) is set; a request whose only changes are
 * top-level members keeps them too, with those members written into them (an agent's conversation of hundreds
 * of kilobytes is neither decoded nor serialised again for a model name or an option).
 */
export function prepareBody(
  body: JobBody,
  mode: RelayMode,
  stream: boolean,
  channel: RoutedChannel,
  upstreamModel: string,
  alwaysReserialise = false,
  outputCap?: number,
): { body: RelayBody; systemPromptReset: boolean } {
  if (body.kind === 'binary')
    return { body: { kind: 'binary', raw: body.raw, contentType: body.contentType }, systemPromptReset: false };
  // Copied on the first change only: the parsed body is shared by every attempt and most calls change nothing.
  // The copy keeps the members a long body has not decoded yet undecoded.
  let value: Json = body.value;
  const change = (): Json => (value === body.value ? (value = lazyCopy(body.value)) : value);
  /** The top-level members changed, with their JSON when it is known without serialising. */
  const edits = new Map<string, string | undefined>();
  const edit = (key: string, member: unknown, json?: string) => {
    change()[key] = member;
    edits.set(key, json);
  };
  let systemPromptReset = false;
  if (value.model !== undefined && value.model !== upstreamModel) edit('model', upstreamModel);
  const systemPrompt = channel.row.system_prompt;
  if (systemPrompt && Array.isArray(value.messages)) {
    const messages = [...(value.messages as unknown[])];
    const first = messages[0] as Json | undefined;
    if (first && typeof first === 'object' && first.role === 'system')
      messages[0] = { ...first, content: systemPrompt };
    else messages.unshift({ role: 'system', content: systemPrompt });
    change().messages = messages;
    systemPromptReset = true;
  }
  if (stream && (mode === 'chat' || mode === 'completions')) {
    const given = value.stream_options;
    const options = typeof given === 'object' && given !== null ? (given as Json) : {};
    if (options.include_usage !== true)
      edit('stream_options', { ...options, include_usage: true }, given === undefined ? usageAsked : undefined);
  }
  if (outputCap !== undefined) {
    const given = outputLimitFields.filter((field) => value[field] !== undefined && value[field] !== null);
    const fields = given.length > 0 ? given : [completionLimitFieldOf(channel)];
    for (const field of fields) edit(field, outputCap);
  }
  if (edits.size > 0 && !systemPromptReset && !body.filled && !alwaysReserialise) {
    const raw = withMembers(body.raw, body.outline, body.value, value, edits);
    if (raw) return { body: { kind: 'json', value, raw, changed: false }, systemPromptReset };
  }
  const changed = value !== body.value || body.filled || alwaysReserialise;
  return { body: { kind: 'json', value, raw: body.raw, changed }, systemPromptReset };
}

const usageAsked = '{"include_usage":true}';
const isJsonSpace = (byte: number | undefined) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/**
 * A JSON object's bytes with its changed top-level members written in: a member the bytes hold is replaced
 * where it stands (located by the outline), a new one goes last. For compact JSON these are the bytes
 * JSON.stringify would write for the changed object. Undefined when a member to replace cannot be located (a
 * body without an outline): it is serialised then.
 */
function withMembers(
  raw: Buffer,
  outline: OutlineObject | undefined,
  original: Json,
  changed: Json,
  edits: ReadonlyMap<string, string | undefined>,
): Buffer | undefined {
  const replaced: { start: number; end: number; json: string }[] = [];
  const added: string[] = [];
  for (const [key, known] of edits) {
    const json = known ?? JSON.stringify(changed[key]);
    const node = outline?.members.get(key);
    if (node) replaced.push({ start: node.start, end: node.end, json });
    else if (!outline && original[key] !== undefined) return undefined;
    else added.push(`"${key}":${json}`); // the relay's own field names: nothing to escape
  }
  // The object's closing brace: only white space may follow it.
  const close = outline ? outline.end - 1 : raw.lastIndexOf(0x7d);
  const parts: Buffer[] = [];
  let at = 0;
  for (const { start, end, json } of replaced.sort((a, b) => a.start - b.start)) {
    parts.push(raw.subarray(at, start), Buffer.from(json));
    at = end;
  }
  if (added.length > 0) {
    let before = close - 1;
    while (isJsonSpace(raw[before])) before--;
    const first = raw[before] === 0x7b ? '' : ',';
    parts.push(raw.subarray(at, close), Buffer.from(`${first}${added.join(',')}`));
    at = close;
  }
  parts.push(raw.subarray(at));
  return Buffer.concat(parts);
}

const completionLimitFieldOf = (channel: RoutedChannel) =>
  completionLimitChannelTypes.has(channel.row.type) ? 'max_completion_tokens' : 'max_tokens';
