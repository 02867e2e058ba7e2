import type { MockUpstream } from './mock-kit.js';
import { startOpenAILikeMock } from './openai-like-mock.js';

/** A local MiniMax: `/v1/text/chatcompletion_v2`; a wrong key is answered with HTTP 200 and `base_resp` 1004, as MiniMax does. */
export function startMinimaxMock(options: { apiKey: string }): Promise<MockUpstream> {
  return startOpenAILikeMock({
    vendor: 'minimax',
    apiKey: options.apiKey,
    routes: { '/v1/text/chatcompletion_v2': 'chat' },
    unauthorized: { status: 200, fixture: 'error.json' },
    checkBody: (body) =>
      typeof body.model !== 'string'
        ? [200, { base_resp: { status_code: 2013, status_msg: 'invalid params, model is required' } }]
        : undefined,
  });
}
