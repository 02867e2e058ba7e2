import type { MockUpstream } from './mock-kit.js';
import { startOpenAILikeMock } from './openai-like-mock.js';

/** A local DashScope compatible mode (`/compatible-mode/v1/...`), answering OpenAI's shapes. */
export function startAliBailianMock(options: { apiKey: string }): Promise<MockUpstream> {
  return startOpenAILikeMock({
    vendor: 'ali-bailian',
    apiKey: options.apiKey,
    routes: { '/compatible-mode/v1/chat/completions': 'chat', '/compatible-mode/v1/embeddings': 'embeddings' },
    unauthorized: { status: 401, fixture: 'error.json' },
  });
}
