import type { ServerResponse } from 'node:http';
import type { GeminiRequestOriginal } from '../../adaptors/gemini/gemini-original.js';
import type { RelayReply } from '../../pipeline/relay-job.js';
import { droppedHeader } from '../anthropic/dropped-header.js';

/** Header values stay short: a long list ends with how many more there were. */
const maxHeaderLength = 2000;

function headerValue(dropped: string[]): string {
  let value = '';
  for (const [index, path] of dropped.entries()) {
    const next = value === '' ? path : `${value},${path}`;
    if (next.length > maxHeaderLength) return `${value},+${dropped.length - index} more`;
    value = next;
  }
  return value;
}

/**
 * Node's response with every status line written as JSON: Google's stream without `alt=sse` is one JSON array
 * written piece by piece, which the pipeline's stream writer would announce as an event stream.
 */
function jsonStreamResponse(raw: ServerResponse): ServerResponse {
  return new Proxy(raw, {
    get(target, property) {
      if (property === 'writeHead')
        return (status: number, headers: Record<string, string>) =>
          target.writeHead(status, { ...headers, 'content-type': 'application/json; charset=UTF-8' });
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * The reply of a Gemini front job: a successful answer from a channel that was not sent the client's own
 * body (any but Gemini and Vertex's Gemini) names in `x-modelgate-dropped` what it never received; a stream
 * without `alt=sse` goes out as JSON. After a failed Gemini attempt retried on another channel the mark
 * stays and the header is left out (as for the Anthropic front).
 */
export function geminiFrontReply(
  reply: RelayReply,
  options: { dropped: string[]; original: GeminiRequestOriginal; jsonStream?: boolean },
): RelayReply {
  const { dropped, original } = options;
  if (dropped.length === 0 && !options.jsonStream) return reply;
  const value = headerValue(dropped);
  const withDropped = (headers: Record<string, string>) =>
    original.sentToGemini || dropped.length === 0 ? headers : { ...headers, [droppedHeader]: value };
  const raw = options.jsonStream ? jsonStreamResponse(reply.raw) : reply.raw;
  let status = 200;
  const reporting: RelayReply = {
    raw,
    status(code) {
      status = code;
      reply.status(code);
      return reporting;
    },
    headers(values) {
      reply.headers(values);
      return reporting;
    },
    send(body) {
      if (status < 300) reply.headers(withDropped({}));
      reply.send(body);
    },
    getHeaders: () => withDropped(reply.getHeaders()),
  };
  return reporting;
}
