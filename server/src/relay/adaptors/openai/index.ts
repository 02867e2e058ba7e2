import type { RelayCall } from '../../adaptor.js';
import { openAICompatible } from '../openai-kit/openai-compatible.js';
import { openAIModels } from './models.js';
import { openAIUrl } from './request.js';
import { withResponsesPassThrough } from './responses-pass-through.js';

/** OpenAI's protocol for chat, completions, embeddings, images and audio (Azure reuses it with its own URLs). */
export const openAIChat = openAICompatible({ id: 'openai', models: openAIModels });

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
