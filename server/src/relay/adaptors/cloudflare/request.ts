import type { ChannelSettings, RelayCall, UpstreamRequest } from '../../adaptor.js';
import { channelKeyError } from '../openai-kit/upstream-errors.js';
import { upstreamBody } from '../openai/request.js';
import type { CloudflareRunRequest } from './types.js';

const aiGateway = 'https://gateway.ai.cloudflare.com';
const cloudflareKeyFormat = 'accountId|token, or the API token with the account id in the config user_id field';

/** The API token and account id: config `user_id` holds the account (one-api), or the key is `accountId|token`. */
export function readCloudflareCredentials(channel: ChannelSettings): { accountId: string; token: string } {
  let token = channel.key.trim();
  let accountId = channel.config.user_id?.trim() ?? '';
  const bar = token.indexOf('|');
  if (bar !== -1) {
    accountId ||= token.slice(0, bar).trim();
    token = token.slice(bar + 1).trim();
  }
  if (!token) throw channelKeyError('Cloudflare', cloudflareKeyFormat, 'the API token is empty');
  if (!/^[0-9a-f]{32}$/i.test(accountId))
    throw channelKeyError(
      'Cloudflare',
      cloudflareKeyFormat,
      'the 32-hex account id is in neither the key nor the config user_id field',
    );
  return { accountId, token };
}

/** `{base}/client/v4/accounts/{account}/ai`, or an AI Gateway URL used as the prefix as it is. */
export function cloudflarePrefix(call: RelayCall, accountId: string): string {
  const base = call.channel.baseUrl;
  return base.startsWith(aiGateway) ? base : `${base}/client/v4/accounts/${accountId}/ai`;
}

/** A legacy completions request as a native `run` input. */
export function toCloudflareRun(value: Record<string, unknown>): CloudflareRunRequest {
  const prompt = Array.isArray(value.prompt) ? value.prompt.map(String).join('\n') : String(value.prompt ?? '');
  const body: CloudflareRunRequest = { prompt };
  if (typeof value.max_tokens === 'number') body.max_tokens = value.max_tokens;
  if (value.stream === true) body.stream = true;
  if (typeof value.temperature === 'number') body.temperature = value.temperature;
  return body;
}

/**
 * Chat and embeddings go to Workers AI's OpenAI-compatible endpoints unchanged; legacy completions go to the
 * native `/run/{model}`.
 */
export function buildCloudflareRequest(call: RelayCall): UpstreamRequest {
  const { accountId, token } = readCloudflareCredentials(call.channel);
  const prefix = cloudflarePrefix(call, accountId);
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  if (call.mode === 'completions') {
    const value = call.body.kind === 'json' ? call.body.value : {};
    return {
      url: `${prefix}/run/${call.model}`,
      method: 'POST',
      headers,
      body: JSON.stringify(toCloudflareRun(value)),
    };
  }
  const path = call.mode === 'embeddings' ? '/v1/embeddings' : '/v1/chat/completions';
  return { url: prefix + path, method: 'POST', headers, body: upstreamBody(call) };
}
