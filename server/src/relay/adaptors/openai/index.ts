import type { RelayCall } from '../../adaptor.js';
import { openAICompatible } from '../openai-kit/openai-compatible.js';
import { inModelDialect } from './model-dialect.js';
import { openAIModels } from './models.js';
import { openAIUrl } from './request.js';
import { withResponsesPassThrough } from './responses-pass-through.js';

const openAIProtocol = openAICompatible({ id: 'openai', models: openAIModels });

/**
 * OpenAI's protocol for chat, completions, embeddings, images and audio (Azure reuses it with its own URLs),
 * each chat body in the dialect of its model (output limit, reasoning models' parameters).
 */
export const openAIChat: typeof openAIProtocol = {
  ...openAIProtocol,
  buildRequest: (call) => openAIProtocol.buildRequest(inModelDialect(call)),
};

const openAIChannelType = 1;

/**
 * OpenAI itself and every reseller that mirrors its API. Responses API calls go to OpenAI's `/v1/responses`
 * as they are; resellers get them converted to chat unless their channel config says `responses_api: native`.
 */
export const openai = withResponsesPassThrough(openAIChat, {
  byDefault: (channel) => channel.type === openAIChannelType,
  request: (call: RelayCall, body) => ({
    url: openAIUrl({ ...call, path: '/v1/responses', query: '' }, {}),
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: call.stream ? 'text/event-stream' : 'application/json',
      authorization: `Bearer ${call.channel.key}`,
    },
    body: JSON.stringify(body),
  }),
});
