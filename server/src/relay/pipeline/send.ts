import type { Adaptor, RelayCall } from '../adaptor.js';
import { UpstreamError } from '../upstream-error.js';
import type { OpenResponse, UpstreamClient } from './upstream-client.js';

/**
 * Builds the adaptor's request, sends it and checks the status. A non-2xx answer, or a JSON answer to a
 * stream request (one-api's rule), is read whole and thrown as an UpstreamError; a 2xx answer is returned
 * unread so that streams pass through as they arrive.
 */
export async function sendToUpstream(
  client: UpstreamClient,
  adaptor: Adaptor,
  call: RelayCall,
  signal?: AbortSignal,
): Promise<OpenResponse> {
  const response = await client.open(adaptor.buildRequest(call), signal);
  const ok = response.status >= 200 && response.status < 300;
  const jsonToStream = call.stream && ok && (response.headers['content-type'] ?? '').includes('application/json');
  if (ok && !jsonToStream) return response;
  const whole = await client.readAll(response);
  const error = adaptor.readError(whole, call);
  throw new UpstreamError(ok ? { ...error, status: 502 } : error);
}
