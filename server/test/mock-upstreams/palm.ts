import { fixtureJson, type MockUpstream, startMockUpstream } from './mock-kit.js';

export const palmMockKey = 'AIza-mock-palm-key';

/** A loopback PaLM 2 `generateMessage` (the only PaLM call), Google's error envelope on a bad key or body. */
export function startPalmMock(): Promise<MockUpstream> {
  return startMockUpstream(async (request, reply) => {
    if (request.method !== 'POST' || request.path !== '/v1beta2/models/chat-bison-001:generateMessage')
      return reply.json(404, { error: { code: 404, message: 'not found', status: 'NOT_FOUND' } });
    if (request.headers['x-goog-api-key'] !== palmMockKey)
      return reply.json(400, fixtureJson('palm', 'error-invalid-key.json'));
    const messages = (request.json as { prompt?: { messages?: unknown } } | undefined)?.prompt?.messages;
    if (!Array.isArray(messages) || messages.length === 0)
      return reply.json(400, {
        error: { code: 400, message: 'prompt.messages must not be empty', status: 'INVALID_ARGUMENT' },
      });
    const unsafe = JSON.stringify(messages).includes('unsafe');
    return reply.json(200, fixtureJson('palm', unsafe ? 'filtered.json' : 'generate-message.json'));
  });
}
