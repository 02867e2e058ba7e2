import type { Adaptor, AdaptorTools, RelayCall } from '../adaptor.js';
import { UpstreamError, isUpstreamError, transportError } from '../upstream-error.js';
import type { Cancel } from './cancel.js';
import type { OpenResponse, UpstreamClient } from './upstream-client.js';

/** The adaptor's tools, plus the Cancel the pipeline's own upstream call listens to. */
export interface PipelineTools extends AdaptorTools {
  cancel?: Cancel;
}

/** The helpers an adaptor may use during one call: auxiliary requests through the relay's own client. */
export function adaptorTools(client: UpstreamClient, cancel?: Cancel): PipelineTools {
  return {
    send: async (request) => client.readAll(await client.open(request, cancel)),
    stream: (request) => client.open(request, cancel),
    // Made on first use only (see Cancel).
    get signal() {
      return cancel?.signal;
    },
    cancel,
  };
}

async function openAnswer(
  client: UpstreamClient,
  adaptor: Adaptor,
  call: RelayCall,
  tools: PipelineTools,
): Promise<OpenResponse> {
  if (!adaptor.open) return client.open(await adaptor.buildRequest(call, tools), tools.cancel);
  try {
    const answer = await adaptor.open(call, tools);
    // An answer opened through `tools.stream` keeps its own discard, which frees the pooled connection.
    return { discard: () => {}, ...answer };
  } catch (error) {
    if (isUpstreamError(error)) throw error;
    throw transportError(error, false);
  }
}

/**
 * Builds the adaptor's request, sends it and checks the status. A non-2xx answer, or a JSON answer to a
 * stream request (one-api's rule), is read whole and thrown as an UpstreamError; a 2xx answer is returned
 * unread so that streams pass through as they arrive.
 */
export async function sendToUpstream(
  client: UpstreamClient,
  adaptor: Adaptor,
  call: RelayCall,
  tools: PipelineTools,
): Promise<OpenResponse> {
  const response = await openAnswer(client, adaptor, call, tools);
  const ok = response.status >= 200 && response.status < 300;
  const jsonToStream = call.stream && ok && (response.headers['content-type'] ?? '').includes('application/json');
  if (ok && !jsonToStream) return response;
  const whole = await client.readAll(response);
  const error = adaptor.readError(whole, call);
  // A 2xx error body keeps the status the adaptor read from its code (Baidu 110 → 401, Hunyuan limits → 429).
  throw new UpstreamError(ok ? { ...error, status: error.status >= 400 ? error.status : 502 } : error);
}
