import type { MockUpstream } from './mock-kit.js';
import { startOpenAILikeMock } from './openai-like-mock.js';

/** A local Volcengine Ark: `/api/v3/...`, an `ep-…` endpoint id or a versioned model id as `model`. */
export function startDoubaoMock(options: { apiKey: string }): Promise<MockUpstream> {
  return startOpenAILikeMock({
    vendor: 'doubao',
    apiKey: options.apiKey,
    routes: { '/api/v3/chat/completions': 'chat', '/api/v3/embeddings': 'embeddings' },
    unauthorized: { status: 401, fixture: 'error.json' },
    checkBody: (body) =>
      /^(ep-|doubao-)/.test(String(body.model))
        ? undefined
        : [
            404,
            {
              error: {
                code: 'InvalidEndpointOrModel.NotFound',
                message: `The model or endpoint ${String(body.model)} does not exist or you do not have access to it.`,
                param: '',
                type: 'NotFound',
              },
            },
          ],
  });
}
