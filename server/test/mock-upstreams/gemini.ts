import {
  fixture,
  fixtureJson,
  type MockReply,
  type MockUpstream,
  type RecordedRequest,
  startMockUpstream,
} from './mock-kit.js';

export const geminiMockKey = 'AIza-mock-gemini-key';

const googleError = (code: number, status: string, message: string) => ({ error: { code, message, status } });

/** The checks generateContent makes on its body; a message when one fails. Shared with the Vertex mock. */
export function checkGeminiBody(body: unknown, requireRoles: boolean): string | undefined {
  const contents = (body as { contents?: unknown } | undefined)?.contents;
  if (!Array.isArray(contents) || contents.length === 0)
    return '* GenerateContentRequest.contents: contents is not specified';
  for (const [index, content] of contents.entries()) {
    const { role, parts } = content as { role?: unknown; parts?: unknown };
    if (role !== undefined && role !== 'user' && role !== 'model')
      return `Please use a valid role: user, model. (contents[${index}])`;
    if (requireRoles && role === undefined) return `contents[${index}].role is required`;
    if (!Array.isArray(parts) || parts.length === 0)
      return `* GenerateContentRequest.contents[${index}].parts: contents.parts must not be empty.`;
  }
  return undefined;
}

/** Replays a Gemini answer for `method` (generateContent, streamGenerateContent or batchEmbedContents). */
export async function answerGemini(
  request: RecordedRequest,
  reply: MockReply,
  method: string,
  requireRoles: boolean,
): Promise<void> {
  const body = request.json as Record<string, unknown> | undefined;
  if (method === 'batchEmbedContents') {
    const requests = (body?.requests as unknown[] | undefined) ?? [];
    const recorded = fixtureJson('gemini', 'embeddings.json') as { embeddings: unknown[] };
    return reply.json(200, {
      embeddings: requests.map((_, index) => recorded.embeddings[index % recorded.embeddings.length]),
    });
  }
  const problem = checkGeminiBody(body, requireRoles);
  if (problem) return reply.json(400, googleError(400, 'INVALID_ARGUMENT', problem));
  const text = JSON.stringify(body?.contents ?? '');
  const wantsTools = Array.isArray(body?.tools) && !text.includes('functionResponse');
  if (text.includes('BLOCK ME')) return reply.json(200, fixtureJson('gemini', 'blocked.json'));
  if (method === 'streamGenerateContent') {
    if (request.query.get('alt') !== 'sse')
      return reply.json(400, googleError(400, 'INVALID_ARGUMENT', 'mock speaks SSE only'));
    return reply.stream('text/event-stream', fixture('gemini', wantsTools ? 'function-call-stream.sse' : 'stream.sse'));
  }
  if (method !== 'generateContent') return reply.json(404, googleError(404, 'NOT_FOUND', `Method ${method} not found`));
  return reply.json(200, fixtureJson('gemini', wantsTools ? 'function-call.json' : 'generate-content.json'));
}

/**
 * A loopback Generative Language API: `/{version}/models/{model}:{method}`, the key in `x-goog-api-key` or
 * `?key=`, Google's error envelope for a wrong key, unknown version or bad body.
 */
export function startGeminiMock(): Promise<MockUpstream> {
  return startMockUpstream(async (request, reply) => {
    const match = /^\/(v1|v1beta)\/models\/([^/:]+):(\w+)$/.exec(request.path);
    if (request.method !== 'POST' || !match)
      return reply.json(404, googleError(404, 'NOT_FOUND', `path ${request.path} not found`));
    const key = request.headers['x-goog-api-key'] ?? request.query.get('key');
    if (key !== geminiMockKey) return reply.json(400, fixtureJson('gemini', 'error-invalid-key.json'));
    await answerGemini(request, reply, match[3] ?? '', false);
  });
}
