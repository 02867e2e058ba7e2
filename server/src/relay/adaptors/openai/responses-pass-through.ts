import type { Adaptor, ChannelSettings, RelayCall, UpstreamRequest } from '../../adaptor.js';
import { bodyOf, maxOutputTokens } from '../openai-kit/chat-request.js';
import { isObject } from '../openai-kit/json.js';
import { readResponsesAnswer, readResponsesStream } from './responses-answer.js';
import { responsesOriginalOf, type ResponsesOriginal } from './responses-original.js';

/**
 * Whether a channel gets Responses API requests as they are. The channel's config decides when it says so
 * (`"responses_api": "native"` for an OpenAI-protocol upstream that serves `/v1/responses`, `"chat"` to have
 * them converted to chat completions); otherwise the adaptor's default (OpenAI itself and Azure: native).
 */
export function servesResponses(channel: ChannelSettings, byDefault: boolean): boolean {
  const setting = (channel.config as { responses_api?: string }).responses_api;
  if (setting === 'native') return true;
  if (setting === 'chat') return false;
  return byDefault;
}

/** How one vendor takes a Responses request natively. */
export interface NativeResponses {
  /** Whether the channel serves the Responses API when its config does not say (see servesResponses). */
  byDefault(channel: ChannelSettings): boolean;
  /** The upstream request for a Responses body; `body.model` is already the upstream model. */
  request(call: RelayCall, body: Record<string, unknown>): UpstreamRequest;
}

const nativeResponsesKey = Symbol('native-responses');
type Marked = { [nativeResponsesKey]?: NativeResponses };

/**
 * Whether this channel gets Responses API calls natively (its adaptor can, and its config or type says so):
 * a request only such a channel can serve (one the chat conversion refuses) is limited to them.
 */
export function channelServesResponses(adaptor: Adaptor | null, channel: ChannelSettings): boolean {
  const native = adaptor ? (adaptor as Marked)[nativeResponsesKey] : undefined;
  return native !== undefined && servesResponses(channel, native.byDefault(channel));
}

/**
 * The Responses body for the upstream, with this channel's model, the output cap the balance set and, when
 * the channel forces one, its system prompt.
 */
function nativeBody(call: RelayCall, original: ResponsesOriginal): Record<string, unknown> {
  const body: Record<string, unknown> = { ...original.request, model: call.model };
  // The pipeline lowers the converted request's limit when the balance cuts the call: the native one follows.
  const cap = maxOutputTokens(bodyOf(call));
  if (cap !== undefined && !(typeof body.max_output_tokens === 'number' && body.max_output_tokens <= cap))
    body.max_output_tokens = cap;
  const messages = bodyOf(call).messages;
  // The pipeline replaces the converted messages only to put the channel's system prompt first: it stands in
  // for the instructions, as it stands in for the first system message on chat calls.
  if (messages !== original.messages && Array.isArray(messages)) {
    const first: unknown = messages[0];
    if (isObject(first) && first.role === 'system' && typeof first.content === 'string')
      body.instructions = first.content;
  }
  return body;
}

/**
 * An OpenAI-protocol adaptor that also serves the Responses front natively: on a channel that speaks the
 * Responses API, a call from that front goes upstream as the client's Responses request (built-in tools,
 * reasoning items and all) and its answer or event stream comes back whole for the front to send on;
 * everything else runs through `adaptor` unchanged.
 */
export function withResponsesPassThrough<Wrapped extends Adaptor>(adaptor: Wrapped, native: NativeResponses): Wrapped {
  const nativeOriginal = (call: RelayCall) => {
    const original = responsesOriginalOf(call);
    return original && servesResponses(call.channel, native.byDefault(call.channel)) ? original : undefined;
  };
  const wrapped: Adaptor & Marked = {
    ...adaptor,
    [nativeResponsesKey]: native,
    buildRequest(call, tools) {
      const served = nativeOriginal(call);
      if (served) served.sentToChannel = call.channel.id;
      return served ? native.request(call, nativeBody(call, served)) : adaptor.buildRequest(call, tools);
    },
    readResponse: (response, call, tools) =>
      nativeOriginal(call) ? readResponsesAnswer(response) : adaptor.readResponse(response, call, tools),
    readStream: (body, call) => (nativeOriginal(call) ? readResponsesStream(body) : adaptor.readStream(body, call)),
  };
  return wrapped as Wrapped;
}
