import { z } from 'zod';
import { anthropicCountTokensBody, anthropicMessagesBody } from './anthropic.js';
import { geminiModel, geminiModelList } from './gemini.js';
import { responsesCreateBody } from './responses.js';
import { openAIModelList } from './channel.js';
import type { Operation } from './operation.js';
import {
  chatBody,
  completionBody,
  embeddingBody,
  imageBody,
  moderationBody,
  multipartFields,
  speechBody,
} from './relay.js';

/** OpenAI routes the gateway knows but does not relay: each answers 501 in the OpenAI error shape. */
export const notImplementedRoutes = [
  ['POST', '/v1/edits'],
  ['GET', '/v1/files'],
  ['POST', '/v1/files'],
  ['DELETE', '/v1/files/:id'],
  ['GET', '/v1/files/:id'],
  ['GET', '/v1/files/:id/content'],
  ['POST', '/v1/fine_tuning/jobs'],
  ['GET', '/v1/fine_tuning/jobs'],
  ['GET', '/v1/fine_tuning/jobs/:id'],
  ['POST', '/v1/fine_tuning/jobs/:id/cancel'],
  ['GET', '/v1/fine_tuning/jobs/:id/events'],
  ['DELETE', '/v1/models/:model'],
  ['POST', '/v1/assistants'],
  ['GET', '/v1/assistants'],
  ['GET', '/v1/assistants/:id'],
  ['POST', '/v1/assistants/:id'],
  ['DELETE', '/v1/assistants/:id'],
  ['POST', '/v1/threads'],
  ['GET', '/v1/threads/:id'],
  ['POST', '/v1/threads/:id'],
  ['DELETE', '/v1/threads/:id'],
  ['POST', '/v1/threads/:id/messages'],
  ['GET', '/v1/threads/:id/messages'],
  ['POST', '/v1/threads/:id/runs'],
  ['GET', '/v1/threads/:id/runs'],
  ['POST', '/v1/threads/runs'],
] as const;

const relayed = (path: string, summary: string, body: Pick<Operation, 'body' | 'form'>): Operation => ({
  method: 'POST',
  path,
  summary,
  access: 'api-key',
  ...body,
});

const modelParams = z.object({ model: z.string() });

/** A key's balance for OpenAI's old dashboard clients, at /dashboard/billing and /v1/dashboard/billing. */
const billing = ['', '/v1'].flatMap((prefix): Operation[] => [
  {
    method: 'GET',
    path: `${prefix}/dashboard/billing/subscription`,
    summary: "The key's quota as an OpenAI billing subscription",
    access: 'api-key',
    answer: z.looseObject({ object: z.literal('billing_subscription'), hard_limit_usd: z.number() }),
  },
  {
    method: 'GET',
    path: `${prefix}/dashboard/billing/usage`,
    summary: "The key's usage (in hundredths)",
    access: 'api-key',
    answer: z.object({ object: z.literal('list'), total_usage: z.number() }),
  },
]);

/** Every route of the relay. */
export const relayOperations: Operation[] = [
  relayed('/v1/chat/completions', 'Chat completion (streamed with stream: true)', { body: chatBody }),
  relayed('/v1/completions', 'Text completion', { body: completionBody }),
  relayed('/v1/embeddings', 'Embeddings', { body: embeddingBody }),
  {
    ...relayed('/v1/engines/:model/embeddings', 'Embeddings, the model in the path', { body: embeddingBody }),
    params: modelParams,
  },
  relayed('/v1/moderations', 'Moderation', { body: moderationBody }),
  relayed('/v1/images/generations', 'Image generation', { body: imageBody }),
  relayed('/v1/images/edits', 'Image edit (upload)', { form: multipartFields }),
  relayed('/v1/images/variations', 'Image variation (upload)', { form: multipartFields }),
  { ...relayed('/v1/audio/speech', 'Text to speech; answers audio', { body: speechBody }), mediaType: 'audio/mpeg' },
  relayed('/v1/audio/transcriptions', 'Transcription (upload)', { form: multipartFields }),
  relayed('/v1/audio/translations', 'Translation to English (upload)', { form: multipartFields }),
  relayed('/v1/messages', 'Anthropic Messages API, relayed to any channel', { body: anthropicMessagesBody }),
  relayed('/v1/messages/count_tokens', 'Anthropic token count', { body: anthropicCountTokensBody }),
  relayed('/v1/responses', 'OpenAI Responses API, relayed to any channel', { body: responsesCreateBody }),
  ...(
    [
      ['GET', '/v1/responses/:id', 'A stored response'],
      ['DELETE', '/v1/responses/:id', 'Deletes a stored response'],
      ['GET', '/v1/responses/:id/input_items', "A stored response's input items, a page at a time"],
      ['POST', '/v1/responses/:id/cancel', 'Cancels a background response (none run here: answers 400 as for others)'],
    ] as const
  ).map(([method, path, summary]): Operation => ({
    method,
    path,
    summary,
    access: 'api-key',
    params: z.object({ id: z.string() }),
  })),
  ...['/v1beta', '/v1'].map((prefix): Operation => ({
    method: 'POST',
    path: `${prefix}/models/:model`,
    summary:
      "Gemini's API, relayed to any channel: models/{model}:generateContent, :streamGenerateContent (alt=sse or a JSON array), :countTokens, :embedContent, :batchEmbedContents",
    access: 'api-key',
    params: z.object({ model: z.string().describe('The model and the method: gemini-2.5-flash:generateContent') }),
  })),
  {
    method: 'GET',
    path: '/v1beta/models',
    summary: "The models the key may call, in Gemini's shape",
    access: 'api-key',
    answer: geminiModelList,
  },
  {
    method: 'GET',
    path: '/v1beta/models/:model',
    summary: "A model the key may call, in Gemini's shape",
    access: 'api-key',
    params: modelParams,
    answer: geminiModel,
  },
  {
    method: 'GET',
    path: '/v1/models',
    summary: 'The models the key may call',
    access: 'api-key',
    answer: openAIModelList,
  },
  {
    method: 'GET',
    path: '/v1/models/:model',
    summary: 'One built-in model',
    access: 'api-key',
    params: modelParams,
    answer: openAIModelList.shape.data.element,
  },
  ...(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const).map((method): Operation => ({
    method,
    path: '/v1/oneapi/proxy/:channelId/*',
    summary: "Pass the request through to a proxy channel's upstream",
    access: 'api-key',
    params: z.object({ channelId: z.string(), path: z.string() }),
  })),
  ...billing,
  ...notImplementedRoutes.map(([method, path]): Operation => ({
    method,
    path,
    summary: 'Not relayed: answers 501',
    access: 'api-key',
  })),
];
