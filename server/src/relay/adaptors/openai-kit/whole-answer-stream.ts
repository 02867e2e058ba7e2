import type { AdaptorTools, OpenedAnswer, RelayCall, UpstreamRequest } from '../../adaptor.js';
import { bytesOf } from './sse-events.js';

/**
 * For upstreams that never stream (DeepL, PaLM): sends the request through the relay's client and, for a
 * stream call, labels a successful JSON answer so that the pipeline's "JSON answer to a stream request is an
 * error" rule does not apply; the adaptor's readStream then replays it as chunks. one-api made the same
 * exception for DeepL.
 */
export async function openWholeAnswer(
  request: UpstreamRequest,
  call: RelayCall,
  tools: AdaptorTools,
): Promise<OpenedAnswer> {
  const answer = await tools.send(request);
  const ok = answer.status >= 200 && answer.status < 300;
  const headers =
    call.stream && ok ? { ...answer.headers, 'content-type': 'application/x-whole-answer+json' } : answer.headers;
  return { status: answer.status, headers, body: bytesOf(answer.body) };
}
