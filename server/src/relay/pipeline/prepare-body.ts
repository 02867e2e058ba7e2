import type { RelayBody, RelayMode } from '../adaptor.js';
import type { RoutedChannel } from '../routing/channel-router.js';
import { ChannelType } from '../../domain/channel/channel.constants.js';
import type { JobBody } from './relay-job.js';

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
 * they came) unless `alwaysReserialise` (ENFORCE_INCLUDE_USAGE) is set.
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
  let value: Json = body.value;
  const change = (): Json => (value === body.value ? (value = { ...body.value }) : value);
  let systemPromptReset = false;
  if (value.model !== undefined && value.model !== upstreamModel) change().model = upstreamModel;
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
  // Whether asking for the stream's usage is the only change, on a body without stream_options.
  let onlyUsageAsked = false;
  if (stream && (mode === 'chat' || mode === 'completions')) {
    const options =
      typeof value.stream_options === 'object' && value.stream_options !== null ? (value.stream_options as Json) : {};
    if (options.include_usage !== true) {
      onlyUsageAsked = value === body.value && value.stream_options === undefined;
      change().stream_options = { ...options, include_usage: true };
    }
  }
  if (outputCap !== undefined) {
    const given = outputLimitFields.filter((field) => value[field] !== undefined && value[field] !== null);
    const fields = given.length > 0 ? given : [completionLimitFieldOf(channel)];
    for (const field of fields) change()[field] = outputCap;
    onlyUsageAsked = false;
  }
  // The option goes into the client's bytes: an agent's conversation of hundreds of kilobytes is not serialised
  // again for one field (the bytes are those JSON.stringify would write for compact JSON: the key comes last).
  if (onlyUsageAsked && !body.filled && !alwaysReserialise)
    return { body: { kind: 'json', value, raw: withUsageAsked(body.raw), changed: false }, systemPromptReset };
  const changed = value !== body.value || body.filled || alwaysReserialise;
  return { body: { kind: 'json', value, raw: body.raw, changed }, systemPromptReset };
}

const usageMember = '"stream_options":{"include_usage":true}';
const [onlyMember, lastMember] = [Buffer.from(usageMember), Buffer.from(`,${usageMember}`)];
const isJsonSpace = (byte: number | undefined) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/** A JSON object's bytes with `"stream_options":{"include_usage":true}` as its last member. */
function withUsageAsked(raw: Buffer): Buffer {
  const close = raw.lastIndexOf(0x7d); // the object's closing brace: only white space may follow it
  let before = close - 1;
  while (isJsonSpace(raw[before])) before--;
  const member = raw[before] === 0x7b ? onlyMember : lastMember;
  return Buffer.concat([raw.subarray(0, close), member, raw.subarray(close)]);
}

const completionLimitFieldOf = (channel: RoutedChannel) =>
  completionLimitChannelTypes.has(channel.row.type) ? 'max_completion_tokens' : 'max_tokens';
