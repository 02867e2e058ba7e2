import { existsSync } from 'node:fs';
import { fixture, fixturePath, type MockUpstream, type RecordedRequest, startMockUpstream } from './mock-kit.js';

export interface OpenAILikeMockOptions {
  /** Folder of the fixtures under relay/adaptors/. */
  vendor: string;
  apiKey: string;
  /** Path → what it serves. */
  routes: Record<string, 'chat' | 'embeddings'>;
  /** The answer to a wrong key: status and fixture name. */
  unauthorized: { status: number; fixture: string };
  /** A vendor rule the body must follow; returns [status, payload] to refuse it. */
  checkBody?: (body: Record<string, unknown>, request: RecordedRequest) => [number, unknown] | undefined;
}

const hasFixture = (vendor: string, name: string) => existsSync(fixturePath(vendor, name));

/**
 * A local OpenAI-like vendor: Bearer key check, its own paths, chat (whole, SSE; `chat-tool-call.json` when
 * tools are offered and the fixture exists) and embeddings (`embeddings.json`), with the vendor's error shapes.
 */
export function startOpenAILikeMock(options: OpenAILikeMockOptions): Promise<MockUpstream> {
  const { vendor } = options;
  return startMockUpstream(async (request, reply) => {
    const kind = options.routes[request.path];
    if (!kind || request.method !== 'POST')
      return reply.json(404, { error: { message: `no route ${request.path}`, type: 'not_found' } });
    if (request.headers.authorization !== `Bearer ${options.apiKey}`) {
      return reply.json(options.unauthorized.status, fixture(vendor, options.unauthorized.fixture));
    }
    const body = request.json;
    if (!body) return reply.json(400, { error: { message: 'body is not JSON', type: 'invalid_request_error' } });
    const refusal = options.checkBody?.(body, request);
    if (refusal) return reply.json(refusal[0], refusal[1]);
    if (kind === 'embeddings') {
      if (body.input === undefined)
        return reply.json(400, { error: { message: 'input is required', type: 'invalid_request_error' } });
      return reply.json(200, fixture(vendor, 'embeddings.json'));
    }
    if (!Array.isArray(body.messages) || body.messages.length === 0) {
      return reply.json(400, { error: { message: 'messages is required', type: 'invalid_request_error' } });
    }
    if (body.stream === true) return reply.stream('text/event-stream', fixture(vendor, 'stream.sse'));
    const wantsTool =
      Array.isArray(body.tools) && body.tools.length > 0 && (body.messages.at(-1) as { role?: string }).role === 'user';
    return reply.json(
      200,
      fixture(vendor, wantsTool && hasFixture(vendor, 'chat-tool-call.json') ? 'chat-tool-call.json' : 'chat.json'),
    );
  });
}
