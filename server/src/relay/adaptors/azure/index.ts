import type { Adaptor, RelayCall, UpstreamRequest } from '../../adaptor.js';
import { openAIChat } from '../openai/index.js';
import { inModelDialect } from '../openai/model-dialect.js';
import { forwardedHeaders, upstreamBody } from '../openai/request.js';
import { withResponsesPassThrough } from '../openai/responses-pass-through.js';

const defaultApiVersion = '2024-03-01-preview';
const cloudflareGateway = 'https://gateway.ai.cloudflare.com';

/** The deployment of a call: the (mapped) model without dots (`gpt-3.5-turbo` → `gpt-35-turbo`). */
const deploymentOf = (call: RelayCall) => call.model.replaceAll('.', '');

/**
 * Azure's deployment URL: `/openai/deployments/<deployment>/<task>?api-version=…`; images and audio keep the
 * model's name as is. The front query is dropped. https://learn.microsoft.com/azure/ai-services/openai/reference
 */
export function azureUrl(call: RelayCall): string {
  const task = call.path.replace(/^\/v1\//, '');
  const keepsDots = call.mode === 'images' || call.mode.startsWith('audio-');
  const deployment = keepsDots ? call.model : deploymentOf(call);
  const version = call.channel.config.api_version || defaultApiVersion;
  const prefix = call.channel.baseUrl.startsWith(cloudflareGateway) ? '' : '/openai/deployments';
  return `${call.channel.baseUrl}${prefix}/${encodeURIComponent(deployment)}/${task}?api-version=${encodeURIComponent(version)}`;
}

/**
 * Azure OpenAI: OpenAI's bodies and answers, its own URL scheme and an `api-key` header. Responses API calls
 * go to the v1 API's `/openai/v1/responses`, which takes the deployment as `model` and needs no api-version
 * (https://learn.microsoft.com/azure/ai-foundry/openai/how-to/responses); through Cloudflare's gateway they
 * are converted to chat.
 */
export const azure = withResponsesPassThrough(
  {
    ...openAIChat,
    id: 'azure',
    // Azure's deployments run OpenAI's models, with their limits and reasoning models' parameter rules.
    buildRequest: (call: RelayCall): UpstreamRequest => ({
      url: azureUrl(call),
      method: 'POST',
      headers: { ...forwardedHeaders(call), 'api-key': call.channel.key },
      body: upstreamBody(inModelDialect(call)),
    }),
  } satisfies Adaptor,
  {
    byDefault: (channel) => !channel.baseUrl.startsWith(cloudflareGateway),
    request: (call, body) => ({
      url: `${call.channel.baseUrl}/openai/v1/responses`,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: call.stream ? 'text/event-stream' : 'application/json',
        'api-key': call.channel.key,
      },
      body: JSON.stringify({ ...body, model: deploymentOf(call) }),
    }),
  },
);
