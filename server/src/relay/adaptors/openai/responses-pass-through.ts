import type { Adaptor, ChannelSettings, RelayCall, UpstreamRequest } from '../../adaptor.js';
import { bodyOf, maxOutputTokens } from '../openai-kit/chat-request.js';
import { isObject } from '../openai-kit/json.js';
import { readResponsesAnswer } from './responses-answer.js';
import { responsesOriginalOf, type ResponsesOriginal } from './responses-original.js';

/** How a channel takes Responses API calls: its config's `responses_api`, `auto` when it says nothing. */
export type ResponsesApiSetting = 'auto' | 'native' | 'chat';

export const responsesApiSettings: readonly ResponsesApiSetting[] = ['auto', 'native', 'chat'];

const settingOf = (channel: ChannelSettings): ResponsesApiSetting => {
  const setting = (channel.config as { responses_api?: string }).responses_api;
  return setting === 'native' || setting === 'chat' ? setting : 'auto';
};

/**
 * The channels (id and base URL) whose upstream answered a native Responses call 404 or 405 on this node: an
 * OpenAI-compatible address with no `/v1/responses` (a reseller's, the commonest one-api setup). On `auto` they
 * get Responses calls converted to chat from then on; a new base URL is tried natively again.
 */
const convertingChannels = new Map<number, string>();

/**
 * Whether a channel gets Responses API requests as they are: `native` always, `chat` never, `auto` when its
 * type does by default (OpenAI itself and Azure) until its upstream showed it has no Responses API.
 */
export function servesResponses(channel: ChannelSettings, byDefault: boolean): boolean {
  const setting = settingOf(channel);
  if (setting !== 'auto') return setting === 'native';
  return byDefault && convertingChannels.get(channel.id) !== channel.baseUrl;
}

/** How one vendor takes a Responses request natively. */
export interface NativeResponses {
  /** Whether the channel serves the Responses API when its config does not say (see servesResponses). */
  byDefault(channel: ChannelSettings): boolean;
  /** The upstream request for a Responses body; `body.model` is already the upstream model. */
  request(call: RelayCall, body: Record<string, unknown>): UpstreamRequest;
}

/**
 * Whether this channel gets Responses API calls natively (its adaptor speaks the protocol there): a request
 * only such a channel can serve (one the chat conversion refuses) is limited to them.
 */
export const channelServesResponses = (adaptor: Adaptor | null, channel: ChannelSettings, model: string): boolean =>
  adaptor?.speaks?.('responses', channel, model) === true;

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
  const wrapped: Adaptor = {
    ...adaptor,
    speaks: (protocol, channel, model) =>
      protocol === 'responses'
        ? servesResponses(channel, native.byDefault(channel))
        : adaptor.speaks?.(protocol, channel, model) === true,
    nativeRefused(call, error) {
      // OpenAI answers an unknown model 404 too: that says nothing about the path.
      if (call.native?.protocol !== 'responses' || error.code === 'model_not_found') return undefined;
      if (settingOf(call.channel) !== 'auto') return undefined;
      call.native.original.sentToChannel = undefined;
      const { id, baseUrl } = call.channel;
      return () => convertingChannels.set(id, baseUrl);
    },
    buildRequest(call, tools) {
      const served = responsesOriginalOf(call);
      if (served) served.sentToChannel = call.channel.id;
      return served ? native.request(call, nativeBody(call, served)) : adaptor.buildRequest(call, tools);
    },
    readResponse: (response, call, tools) =>
      responsesOriginalOf(call) ? readResponsesAnswer(response) : adaptor.readResponse(response, call, tools),
  };
  return wrapped as Wrapped;
}
