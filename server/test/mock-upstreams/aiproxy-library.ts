import { fixture, sendEventStream, sendJson, startMockUpstream, type MockUpstream } from './china-mock-kit.js';

const vendor = 'aiproxy-library';

/**
 * A local AI Proxy library: `POST /api/library/ask` with a Bearer key and a known `libraryId`, answering
 * whole or as `data:` events; failures are HTTP 200 with `success:false`, as the service sends them.
 */
export function startAiProxyLibraryMock(options: { apiKey: string; libraryId: string }): Promise<MockUpstream> {
  return startMockUpstream(async (request, response) => {
    if (request.method !== 'POST' || request.path !== '/api/library/ask')
      return sendJson(response, 404, { success: false, message: 'not found' });
    if (request.headers.authorization !== `Bearer ${options.apiKey}`)
      return sendJson(response, 200, { success: false, errCode: 401, message: 'invalid api key' });
    const body = request.json ?? {};
    if (body.libraryId !== options.libraryId) return sendJson(response, 200, fixture(vendor, 'error.json'));
    if (typeof body.query !== 'string' || body.query === '')
      return sendJson(response, 200, { success: false, errCode: 1002, message: 'query is required' });
    if (body.stream === true) return sendEventStream(response, fixture(vendor, 'stream.sse'));
    return sendJson(response, 200, fixture(vendor, 'answer.json'));
  });
}
