import type { AppContext } from '../context.js';
import type { ChannelRow } from '../db/tables.js';
import type { ProbeResult } from '../domain/channel/channel-relay.js';
import type { RelayCall } from './adaptor.js';
import { describeChannelType } from './channel-types.js';
import { Cancel } from './pipeline/cancel.js';
import type { UpstreamClient } from './pipeline/upstream-client.js';
import { adaptorTools, sendToUpstream } from './pipeline/send.js';
import { channelSettings, modelMapping } from './routing/channel-settings.js';
import { isUpstreamError } from './upstream-error.js';

/** A test without RELAY_TIMEOUT still ends: a hung upstream must not hold a bulk test forever. */
const probeTimeoutMs = 60_000;

/**
 * Sends the test prompt as a non-streaming chat completion through the channel's adaptor and the relay's
 * own HTTP call (`client`, the relay's), with the channel's model mapping applied. Success needs HTTP 200, usage
 * and a reply text.
 */
export async function probeChannel(
  context: AppContext,
  client: UpstreamClient,
  channel: ChannelRow,
  model: string,
): Promise<ProbeResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const description = describeChannelType(channel.type);
  const adaptor = description.adaptor;
  if (!adaptor || !adaptor.modes.includes('chat')) {
    const message = `channel type ${description.name} (${channel.type}) is not supported by the relay yet`;
    return {
      success: false,
      message,
      elapsedMs: 0,
      model,
      error: { status: 501, type: 'one_api_error', code: 'api_not_implemented', message },
    };
  }
  const upstreamModel = modelMapping(channel)[model] ?? model;
  const body = { model: upstreamModel, messages: [{ role: 'user', content: context.config.TEST_PROMPT }] };
  const call: RelayCall = {
    mode: 'chat',
    path: '/v1/chat/completions',
    query: '',
    model: upstreamModel,
    stream: false,
    body: { kind: 'json', value: body, raw: Buffer.from(JSON.stringify(body)), changed: false },
    channel: channelSettings(channel),
    clientHeaders: {},
  };
  const timeoutMs = context.config.RELAY_TIMEOUT > 0 ? context.config.RELAY_TIMEOUT * 1000 : probeTimeoutMs;
  try {
    const tools = adaptorTools(client, Cancel.after(timeoutMs));
    const response = await sendToUpstream(client, adaptor, call, tools);
    const result = await adaptor.readResponse(await client.readAll(response), call, tools);
    if (response.status !== 200) return failure(`http status code ${response.status}`, elapsed(), model);
    if (!result.usage) return failure('the upstream answered without usage', elapsed(), model);
    if (!result.text) return failure('the upstream answered without a reply text', elapsed(), model);
    return { success: true, message: result.text, elapsedMs: elapsed(), model };
  } catch (error) {
    if (!isUpstreamError(error)) throw error;
    const { status, type, code, message } = error.body;
    return {
      success: false,
      message: `http status code ${status}, error message: ${message}`,
      elapsedMs: elapsed(),
      model,
      error: { status, type, code: code ?? '', message },
    };
  }
}

function failure(message: string, elapsedMs: number, model: string): ProbeResult {
  return {
    success: false,
    message,
    elapsedMs,
    model,
    error: { status: 200, type: 'upstream_error', code: 'bad_response', message },
  };
}
