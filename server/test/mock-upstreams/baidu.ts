import { fixture, type MockUpstream, startMockUpstream } from './mock-kit.js';

export interface BaiduMockOptions {
  apiKey: string;
  secretKey: string;
}

const vendor = 'baidu';
const accessToken = (JSON.parse(fixture(vendor, 'token.json')) as { access_token: string }).access_token;

function badRequest(message: string) {
  return { error_code: 336003, error_msg: message };
}

/** Checks ERNIE's message rules: only user/assistant/function, ending with a user or function turn. */
function messagesProblem(messages: unknown): string | undefined {
  if (!Array.isArray(messages) || messages.length === 0) return 'messages is empty';
  for (const message of messages as Array<{ role?: string; content?: unknown }>) {
    if (!['user', 'assistant', 'function'].includes(message.role ?? '')) return `invalid role: ${message.role}`;
    if (typeof message.content !== 'string') return 'content must be a string';
  }
  const last = (messages as Array<{ role: string }>).at(-1)!.role;
  return last === 'assistant' ? 'the last message must be from the user' : undefined;
}

/**
 * A local Baidu Qianfan v1: `/oauth/2.0/token` hands out the access token for the configured key pair, the
 * wenxinworkshop chat and embeddings endpoints check it and the body, then replay the fixtures. Errors come
 * with HTTP 200, as Baidu sends them.
 */
export function startBaiduMock(options: BaiduMockOptions): Promise<MockUpstream> {
  return startMockUpstream(async (request, reply) => {
    if (request.path === '/oauth/2.0/token') {
      const query = request.query;
      const valid =
        request.method === 'POST' &&
        query.get('grant_type') === 'client_credentials' &&
        query.get('client_id') === options.apiKey &&
        query.get('client_secret') === options.secretKey;
      if (!valid) return reply.json(401, fixture(vendor, 'token-error.json'));
      return reply.json(200, fixture(vendor, 'token.json'));
    }
    const route = /^\/rpc\/2\.0\/ai_custom\/v1\/wenxinworkshop\/(chat|embeddings)\/([\w.-]+)$/.exec(request.path);
    if (!route || request.method !== 'POST')
      return reply.json(404, { error_code: 3, error_msg: 'Unsupported openapi method' });
    if (request.query.get('access_token') !== accessToken) return reply.json(200, fixture(vendor, 'error.json'));
    const body = request.json;
    if (!body) return reply.json(200, badRequest('body is not JSON'));
    if (route[1] === 'embeddings') {
      if (!Array.isArray(body.input) || body.input.length === 0) return reply.json(200, badRequest('input is empty'));
      const answer = JSON.parse(fixture(vendor, 'embeddings.json')) as { data: unknown[] };
      answer.data = answer.data.slice(0, body.input.length);
      return reply.json(200, answer);
    }
    const problem = messagesProblem(body.messages);
    if (problem) return reply.json(200, badRequest(problem));
    const last = (body.messages as Array<{ role: string }>).at(-1)!;
    if (Array.isArray(body.functions) && body.functions.length > 0 && last.role === 'user' && !body.stream) {
      return reply.json(200, fixture(vendor, 'chat-function-call.json'));
    }
    if (body.stream === true) return reply.stream('text/event-stream', fixture(vendor, 'stream.sse'));
    return reply.json(200, fixture(vendor, 'chat.json'));
  });
}
