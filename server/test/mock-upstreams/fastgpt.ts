import type { MockUpstream } from './mock-kit.js';
import { startOpenAILikeMock } from './openai-like-mock.js';

/**
 * A local FastGPT OpenAPI: `/api/openapi/v1/chat/completions` with a `fastgpt-…` app key. Like FastGPT it
 * answers the app's own output (empty id and model) and gives no usage in streams.
 */
export function startFastGptMock(options: { apiKey: string }): Promise<MockUpstream> {
  return startOpenAILikeMock({
    vendor: 'fastgpt',
    apiKey: options.apiKey,
    routes: { '/api/openapi/v1/chat/completions': 'chat' },
    unauthorized: { status: 403, fixture: 'error.json' },
  });
}
