import { fixture, fixtureJson, type MockUpstream, startMockUpstream } from './mock-kit.js';

export const cozeMockToken = 'pat_mock_coze_token';
export const cozeMockBot = '7379462189365198898';

/**
 * A loopback Coze v3: `POST /v3/chat` with a PAT, answering errors as HTTP 200 `{code, msg}` like Coze,
 * streaming the recorded SSE events (a bot id ending in 0 is "not published" and fails mid-stream).
 */
export function startCozeMock(): Promise<MockUpstream> {
  return startMockUpstream(async (request, reply) => {
    if (request.method !== 'POST' || request.path !== '/v3/chat')
      return reply.json(404, { code: 404, msg: 'not found' });
    if (request.headers.authorization !== `Bearer ${cozeMockToken}`)
      return reply.json(200, fixtureJson('coze', 'error-authentication.json'));
    const body = request.json as Record<string, unknown> | undefined;
    if (typeof body?.bot_id !== 'string' || !/^\d+$/.test(body.bot_id))
      return reply.json(200, { code: 4000, msg: 'invalid param: bot_id' });
    if (typeof body.user_id !== 'string' || body.user_id === '')
      return reply.json(200, { code: 4000, msg: 'invalid param: user_id' });
    const messages = body.additional_messages;
    if (
      !Array.isArray(messages) ||
      messages.some((message: { role?: unknown }) => message.role !== 'user' && message.role !== 'assistant')
    ) {
      return reply.json(200, { code: 4000, msg: 'invalid param: additional_messages' });
    }
    if (body.stream !== true) return reply.json(200, { code: 4000, msg: 'mock supports stream:true only' });
    return reply.stream(
      'text/event-stream',
      fixture('coze', body.bot_id.endsWith('0') ? 'failed-stream.sse' : 'chat-stream.sse'),
    );
  });
}
