import { fixture, fixtureJson, type MockUpstream, startMockUpstream } from './mock-kit.js';

export const replicateMockToken = 'r8_mock_replicate_token';

/** A 1×1 PNG served as the image model's output file. */
export const mockPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * A loopback Replicate: create predictions (`POST /v1/models/{owner}/{name}/predictions`, 201), poll them
 * (`GET /v1/predictions/{id}`: image predictions take one poll to finish), stream language predictions from
 * their stream URL as Replicate's SSE, and serve output files. Prediction URLs point back at the mock.
 */
export async function startReplicateMock(): Promise<MockUpstream> {
  let base = '';
  const polls = new Map<string, number>();
  const problem = (status: number, title: string, detail: string) => ({ title, detail, status });
  const mock = await startMockUpstream(async (request, reply) => {
    if (request.path === '/files/out-0.png') return reply.raw(200, { 'content-type': 'image/png' }, mockPng);
    if (request.headers.authorization !== `Bearer ${replicateMockToken}`)
      return reply.json(401, fixtureJson('replicate', 'error-unauthenticated.json'));
    const withUrls = (prediction: Record<string, unknown>, id: string, stream: boolean) => ({
      ...prediction,
      id,
      urls: {
        get: `${base}/v1/predictions/${id}`,
        cancel: `${base}/v1/predictions/${id}/cancel`,
        ...(stream ? { stream: `${base}/stream/${id}` } : {}),
      },
    });
    const create = /^\/v1\/models\/([^/]+)\/([^/]+)\/predictions$/.exec(request.path);
    if (request.method === 'POST' && create) {
      const body = request.json as { input?: Record<string, unknown>; stream?: boolean } | undefined;
      if (typeof body?.input?.prompt !== 'string')
        return reply.json(422, problem(422, 'Input validation failed', '- input: prompt is required'));
      const image = create[1] === 'black-forest-labs';
      if (image) {
        polls.set('img-1', 0);
        return reply.json(
          201,
          withUrls(fixtureJson('replicate', 'prediction-starting.json') as Record<string, unknown>, 'img-1', false),
        );
      }
      if (body.stream === true)
        return reply.json(
          201,
          withUrls(
            { ...(fixtureJson('replicate', 'prediction-chat.json') as object), status: 'starting', output: null },
            'chat-1',
            true,
          ),
        );
      if (request.headers.prefer !== 'wait')
        return reply.json(
          201,
          withUrls(
            { ...(fixtureJson('replicate', 'prediction-chat.json') as object), status: 'starting', output: null },
            'chat-1',
            false,
          ),
        );
      return reply.json(
        201,
        withUrls(fixtureJson('replicate', 'prediction-chat.json') as Record<string, unknown>, 'chat-1', false),
      );
    }
    const poll = /^\/v1\/predictions\/([^/]+)$/.exec(request.path);
    if (request.method === 'GET' && poll) {
      const id = poll[1] ?? '';
      if (id === 'chat-1')
        return reply.json(
          200,
          withUrls(fixtureJson('replicate', 'prediction-chat.json') as Record<string, unknown>, id, false),
        );
      const count = (polls.get(id) ?? 0) + 1;
      polls.set(id, count);
      if (count < 2)
        return reply.json(
          200,
          withUrls(
            { ...(fixtureJson('replicate', 'prediction-starting.json') as object), status: 'processing' },
            id,
            false,
          ),
        );
      const done = fixtureJson('replicate', 'prediction-image.json') as Record<string, unknown>;
      return reply.json(200, withUrls({ ...done, output: [`${base}/files/out-0.png`] }, id, false));
    }
    if (request.method === 'GET' && request.path.startsWith('/stream/')) {
      if (request.headers.accept !== 'text/event-stream')
        return reply.json(406, problem(406, 'Not acceptable', 'Accept: text/event-stream required'));
      return reply.stream('text/event-stream', fixture('replicate', 'stream.sse'));
    }
    return reply.json(404, problem(404, 'Not found', `${request.method} ${request.path}`));
  });
  base = mock.url;
  return mock;
}
