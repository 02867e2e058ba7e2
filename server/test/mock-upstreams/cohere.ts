import { fixture, fixtureJson, type MockUpstream, startMockUpstream } from './mock-kit.js';

export const cohereMockKey = 'co-mock-key-0123456789';

/**
 * A loopback Cohere Chat v1: `POST /v1/chat`, Bearer key, body checked (message or tool_results, chat
 * history roles), answers replayed whole or as an NDJSON stream (`application/stream+json`).
 */
export function startCohereMock(): Promise<MockUpstream> {
  return startMockUpstream(async (request, reply) => {
    if (request.method !== 'POST' || request.path !== '/v1/chat')
      return reply.json(404, { message: `route ${request.path} not found` });
    if (request.headers.authorization !== `Bearer ${cohereMockKey}`)
      return reply.json(401, fixtureJson('cohere', 'error-unauthorized.json'));
    const body = request.json as Record<string, unknown> | undefined;
    if (typeof body?.message !== 'string')
      return reply.json(400, { message: 'invalid request: message must be a string' });
    if (body.message === '' && !Array.isArray(body.tool_results))
      return reply.json(400, {
        message: 'invalid request: message must be at least 1 token long or tool results must be specified.',
      });
    for (const turn of (body.chat_history as { role?: unknown }[] | undefined) ?? []) {
      if (!['USER', 'CHATBOT', 'SYSTEM', 'TOOL'].includes(String(turn.role)))
        return reply.json(400, { message: `invalid request: invalid role ${String(turn.role)}` });
    }
    const tools = Array.isArray(body.tools) && body.tools.length > 0 && !Array.isArray(body.tool_results);
    if (body.stream === true)
      return reply.stream(
        'application/stream+json',
        fixture('cohere', tools ? 'tool-call-stream.jsonl' : 'chat-stream.jsonl'),
      );
    return reply.json(200, fixtureJson('cohere', tools ? 'tool-call.json' : 'chat.json'));
  });
}
