import type { MockUpstream } from './mock-kit.js';
import { startOpenAILikeMock } from './openai-like-mock.js';

const accepted = new Set([
  'model',
  'messages',
  'stream',
  'stream_options',
  'temperature',
  'top_p',
  'top_k',
  'max_tokens',
  'stop',
  'tools',
  'tool_choice',
  'with_search_enhance',
  'knowledge_base',
]);

/** A local Baichuan: refuses chat bodies with fields it does not know and contents that are not strings. */
export function startBaichuanMock(options: { apiKey: string }): Promise<MockUpstream> {
  return startOpenAILikeMock({
    vendor: 'baichuan',
    apiKey: options.apiKey,
    routes: { '/v1/chat/completions': 'chat', '/v1/embeddings': 'embeddings' },
    unauthorized: { status: 401, fixture: 'error.json' },
    checkBody: (body, request) => {
      if (request.path !== '/v1/chat/completions') return undefined;
      const unknown = Object.keys(body).find((field) => !accepted.has(field));
      if (unknown)
        return [
          400,
          {
            error: {
              code: 'invalid_request_error',
              message: `unknown field ${unknown}`,
              type: 'invalid_request_error',
            },
          },
        ];
      const messages = Array.isArray(body.messages) ? (body.messages as Array<{ content?: unknown }>) : [];
      if (messages.some((message) => typeof message.content !== 'string'))
        return [
          400,
          {
            error: {
              code: 'invalid_request_error',
              message: 'content must be a string',
              type: 'invalid_request_error',
            },
          },
        ];
      return undefined;
    },
  });
}
