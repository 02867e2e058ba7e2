import { fixture, fixtureJson, type MockUpstream, startMockUpstream } from './mock-kit.js';

export const cloudflareMockAccount = '0123456789abcdef0123456789abcdef';
export const cloudflareMockToken = 'cf-mock-api-token';

const failure = (code: number, message: string) => ({
  result: null,
  success: false,
  errors: [{ code, message }],
  messages: [],
});

/**
 * A loopback Workers AI under `/client/v4/accounts/{account}/ai`: the OpenAI-compatible chat and embeddings
 * endpoints and the native `/run/{model}`, with Cloudflare's envelope errors for a wrong token or account.
 */
export function startCloudflareMock(): Promise<MockUpstream> {
  return startMockUpstream(async (request, reply) => {
    const prefix = `/client/v4/accounts/${cloudflareMockAccount}/ai`;
    if (!request.path.startsWith('/client/v4/accounts/'))
      return reply.json(404, failure(7000, 'No route for that URI'));
    if (request.headers.authorization !== `Bearer ${cloudflareMockToken}`)
      return reply.json(401, fixtureJson('cloudflare', 'error-authentication.json'));
    if (!request.path.startsWith(prefix)) return reply.json(403, failure(10000, 'Authentication error'));
    const rest = request.path.slice(prefix.length);
    const body = request.json as Record<string, unknown> | undefined;
    if (rest === '/v1/chat/completions') {
      if (typeof body?.model !== 'string' || !Array.isArray(body.messages))
        return reply.json(400, failure(5006, "Error: required properties at '/' are 'messages'"));
      if (body.stream === true) return reply.stream('text/event-stream', fixture('cloudflare', 'chat-stream.sse'));
      return reply.json(200, fixtureJson('cloudflare', 'chat.json'));
    }
    if (rest === '/v1/embeddings') {
      const inputs = Array.isArray(body?.input) ? body.input : [body?.input];
      return reply.json(200, {
        object: 'list',
        data: inputs.map((_, index) => ({ object: 'embedding', index, embedding: [0.1, 0.2, 0.3] })),
        model: body?.model,
        usage: { prompt_tokens: 4, total_tokens: 4 },
      });
    }
    if (rest.startsWith('/run/@')) {
      if (typeof body?.prompt !== 'string')
        return reply.json(400, failure(5006, "Error: required properties at '/' are 'prompt'"));
      if (body.stream === true) return reply.stream('text/event-stream', fixture('cloudflare', 'run-stream.sse'));
      return reply.json(200, fixtureJson('cloudflare', 'run.json'));
    }
    return reply.json(404, failure(7000, 'No route for that URI'));
  });
}
