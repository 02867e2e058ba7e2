import { fixture, type MockUpstream, startMockUpstream } from './mock-kit.js';

const vendor = 'aiproxy-library';

/**
 * A local AI Proxy library: `POST /api/library/ask` with a Bearer key and a known `libraryId`, answering
 * whole or as `data:` events; failures are HTTP 200 with `success:false`, as the service sends them.
 */
export function startAiProxyLibraryMock(options: { apiKey: string; libraryId: string }): Promise<MockUpstream> {
  return startMockUpstream(async (request, reply) => {
    if (request.method !== 'POST' || request.path !== '/api/library/ask')
      return reply.json(404, { success: false, message: 'not found' });
    if (request.headers.authorization !== `Bearer ${options.apiKey}`)
      return reply.json(200, { success: false, errCode: 401, message: 'invalid api key' });
    const body = request.json ?? {};
    if (body.libraryId !== options.libraryId) return reply.json(200, fixture(vendor, 'error.json'));
    if (typeof body.query !== 'string' || body.query === '')
      return reply.json(200, { success: false, errCode: 1002, message: 'query is required' });
    if (body.stream === true) return reply.stream('text/event-stream', fixture(vendor, 'stream.sse'));
    return reply.json(200, fixture(vendor, 'answer.json'));
  });
}
