import type { Adaptor, RelayCall, UpstreamRequest } from '../../adaptor.js';
import { openai } from '../openai/index.js';
import { forwardedHeaders, upstreamBody } from '../openai/request.js';

const defaultApiVersion = '2024-03-01-preview';
const cloudflareGateway = 'https://gateway.ai.cloudflare.com';

/**
 * Azure's deployment URL: `/openai/deployments/<deployment>/<task>?api-version=…`, where the deployment is
 * the (mapped) model without dots (`gpt-3.5-turbo` → `gpt-35-turbo`); images and audio keep the name as is.
 * The front query is dropped. https://learn.microsoft.com/azure/ai-services/openai/reference
 */
export function azureUrl(call: RelayCall): string {
  const task = call.path.replace(/^\/v1\//, '');
  const keepsDots = call.mode === 'images' || call.mode.startsWith('audio-');
  const deployment = keepsDots ? call.model : call.model.replaceAll('.', '');
  const version = call.channel.config.api_version || defaultApiVersion;
  const prefix = call.channel.baseUrl.startsWith(cloudflareGateway) ? '' : '/openai/deployments';
  return `${call.channel.baseUrl}${prefix}/${encodeURIComponent(deployment)}/${task}?api-version=${encodeURIComponent(version)}`;
}

/** Azure OpenAI: OpenAI's bodies and answers, its own URL scheme and an `api-key` header. */
export const azure = {
  ...openai,
  id: 'azure',
  buildRequest: (call: RelayCall): UpstreamRequest => ({
    url: azureUrl(call),
    method: 'POST',
    headers: { ...forwardedHeaders(call), 'api-key': call.channel.key },
    body: upstreamBody(call),
  }),
} satisfies Adaptor;
