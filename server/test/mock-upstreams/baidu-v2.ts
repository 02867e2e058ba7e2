import type { MockUpstream } from './mock-kit.js';
import { startOpenAILikeMock } from './openai-like-mock.js';

/** A local Qianfan v2: `/v2/chat/completions`, lower-case model ids only. */
export function startBaiduV2Mock(options: { apiKey: string }): Promise<MockUpstream> {
  return startOpenAILikeMock({
    vendor: 'baidu-v2',
    apiKey: options.apiKey,
    routes: { '/v2/chat/completions': 'chat' },
    unauthorized: { status: 401, fixture: 'error.json' },
    checkBody: (body) =>
      String(body.model) === String(body.model).toLowerCase()
        ? undefined
        : [
            400,
            {
              error: {
                code: 'invalid_model',
                message: `model ${String(body.model)} is not supported`,
                type: 'invalid_request_error',
              },
              id: 'as-mock',
            },
          ],
  });
}
