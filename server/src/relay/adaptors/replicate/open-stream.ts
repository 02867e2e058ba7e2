import type { AdaptorTools, OpenedAnswer, RelayCall } from '../../adaptor.js';
import { transportError } from '../../upstream-error.js';
import { bytesOf } from '../openai-kit/sse-events.js';
import { buildReplicateRequest, replicateHeaders } from './request.js';
import { parsePrediction } from './response.js';

/**
 * A streamed prediction takes two calls: create it (through the relay's client), then read its stream URL.
 * A failed creation is handed back as it came, for the pipeline's error reading.
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
  let response: Response;
  try {
    response = await fetch(streamUrl, {
      headers: { ...replicateHeaders(call), accept: 'text/event-stream', 'cache-control': 'no-store' },
      signal: tools.signal,
    });
  } catch (error) {
    throw transportError(error, false);
  }
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  const stream = response.body;
  async function* body(): AsyncIterable<Buffer> {
    if (!stream) return;
    for await (const chunk of stream) yield Buffer.from(chunk as Uint8Array);
  }
  return { status: response.status, headers, body: body() };
}
