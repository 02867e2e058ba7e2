import type { MockUpstream } from './mock-kit.js';
import { startOpenAILikeMock } from './openai-like-mock.js';

const domains = new Set(['lite', 'generalv3', 'pro-128k', 'generalv3.5', 'max-32k', '4.0Ultra']);

/** A local Spark HTTP API: Bearer APIPassword, the model must be a domain name, errors carry a non-zero `code`. */
export function startXunfeiV2Mock(options: { apiPassword: string }): Promise<MockUpstream> {
  return startOpenAILikeMock({
    vendor: 'xunfei-v2',
    apiKey: options.apiPassword,
    routes: { '/v1/chat/completions': 'chat' },
    unauthorized: { status: 401, fixture: 'error.json' },
    checkBody: (body) =>
      domains.has(String(body.model))
        ? undefined
        : [400, { code: 10404, message: `model ${String(body.model)} not found`, sid: 'mock' }],
  });
}
