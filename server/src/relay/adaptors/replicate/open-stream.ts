import type { AdaptorTools, OpenedAnswer, RelayCall } from '../../adaptor.js';
import { bytesOf } from '../openai-kit/sse-events.js';
import { buildReplicateRequest, replicateHeaders } from './request.js';
import { parsePrediction } from './response.js';

/**
 * A streamed prediction takes two calls, both through the relay's client: create it, then read its stream
 * URL. A failed creation is handed back as it came, for the pipeline's error reading.
 */
export async function openReplicateStream(call: RelayCall, tools: AdaptorTools): Promise<OpenedAnswer> {
  const created = await tools.send(buildReplicateRequest(call));
  if (created.status < 200 || created.status >= 300)
    return { status: created.status, headers: created.headers, body: bytesOf(created.body) };
  const streamUrl = parsePrediction(created.body).urls.stream;
  if (!streamUrl)
    return {
      status: 502,
      headers: { 'content-type': 'application/json' },
      body: bytesOf(JSON.stringify({ detail: 'Replicate gave no stream URL for this model' })),
    };
  return tools.stream({
    url: streamUrl,
    method: 'GET',
    headers: { ...replicateHeaders(call), accept: 'text/event-stream', 'cache-control': 'no-store' },
  });
}
