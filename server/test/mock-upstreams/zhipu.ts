import { createHmac, timingSafeEqual } from 'node:crypto';
import { fixture, type MockUpstream, startMockUpstream } from './mock-kit.js';

const vendor = 'zhipu';

/**
 * Checks `Authorization` the way BigModel does: an HS256 JWT (with or without `Bearer`) signed with the
 * secret, `api_key` = the id and `exp` in milliseconds in the future; or `Bearer <id>.<secret>`.
 */
export function zhipuAuthorizationValid(
  header: string | undefined,
  id: string,
  secret: string,
  nowMs = Date.now(),
): boolean {
  if (!header) return false;
  const value = header.startsWith('Bearer ') ? header.slice(7) : header;
  if (value === `${id}.${secret}` && header.startsWith('Bearer ')) return true;
  const [head, claims, signature] = value.split('.');
  if (!head || !claims || !signature) return false;
  const expected = createHmac('sha256', secret).update(`${head}.${claims}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
  const parsedHead = JSON.parse(Buffer.from(head, 'base64url').toString()) as { alg?: string; sign_type?: string };
  const parsedClaims = JSON.parse(Buffer.from(claims, 'base64url').toString()) as {
    api_key?: string;
    exp?: number;
    timestamp?: number;
  };
  return (
    parsedHead.alg === 'HS256' &&
    parsedHead.sign_type === 'SIGN' &&
    parsedClaims.api_key === id &&
    (parsedClaims.exp ?? 0) > nowMs
  );
}

const v3Unauthorized = {
  code: 1002,
  msg: 'Authorization Token非法，请确认Authorization Token正确传递。',
  success: false,
};

/**
 * A local BigModel: v4 chat (whole, SSE, tool calls when tools are offered), embeddings and images, and the
 * legacy v3 `invoke`/`sse-invoke`. v4 fails with HTTP 401; v3 answers every failure with 200, as Zhipu does.
 */
export function startZhipuMock(options: { id: string; secret: string }): Promise<MockUpstream> {
  return startMockUpstream(async (request, reply) => {
    const authorized = zhipuAuthorizationValid(request.headers.authorization, options.id, options.secret);
    const body = request.json;
    const v3 = /^\/api\/paas\/v3\/model-api\/([\w.-]+)\/(invoke|sse-invoke)$/.exec(request.path);
    if (v3) {
      if (!authorized) return reply.json(200, v3Unauthorized);
      if (!body || !Array.isArray(body.prompt) || body.prompt.length === 0)
        return reply.json(200, { code: 1214, msg: 'prompt 不能为空', success: false });
      if (JSON.stringify(body.prompt).length > 2000) return reply.json(200, fixture(vendor, 'v3-error.json'));
      if (v3[2] === 'sse-invoke') return reply.stream('text/event-stream', fixture(vendor, 'v3-stream.sse'));
      return reply.json(200, fixture(vendor, 'v3-chat.json'));
    }
    if (!authorized) return reply.json(401, fixture(vendor, 'v4-error.json'));
    if (!body || request.method !== 'POST') return reply.json(404, { error: { code: '404', message: 'not found' } });
    if (request.path === '/api/paas/v4/embeddings') {
      if (body.input === undefined || body.input === '')
        return reply.json(400, { error: { code: '1214', message: 'input 不能为空' } });
      return reply.json(200, fixture(vendor, 'v4-embeddings.json'));
    }
    if (request.path === '/api/paas/v4/images/generations') {
      if (typeof body.prompt !== 'string' || body.prompt === '')
        return reply.json(400, { error: { code: '1214', message: 'prompt 不能为空' } });
      return reply.json(200, fixture(vendor, 'v4-image.json'));
    }
    if (request.path !== '/api/paas/v4/chat/completions')
      return reply.json(404, { error: { code: '404', message: 'not found' } });
    for (const name of ['temperature', 'top_p'] as const) {
      const value = body[name];
      if (typeof value === 'number' && (value <= 0 || value >= 1))
        return reply.json(400, { error: { code: '1214', message: `${name} 取值范围为 (0,1)` } });
    }
    if (!Array.isArray(body.messages) || body.messages.length === 0)
      return reply.json(400, { error: { code: '1214', message: 'messages 不能为空' } });
    const wantsTool =
      Array.isArray(body.tools) && body.tools.length > 0 && (body.messages.at(-1) as { role?: string }).role === 'user';
    if (body.stream === true) return reply.stream('text/event-stream', fixture(vendor, 'v4-stream.sse'));
    return reply.json(200, fixture(vendor, wantsTool ? 'v4-chat-tool-call.json' : 'v4-chat.json'));
  });
}
