import { claudeRequestOriginal } from '../../adaptors/anthropic/claude-original.js';
import type { ChatRequest } from '../../adaptors/openai-kit/chat-types.js';
import type { RelayReply } from '../../pipeline/relay-job.js';

/** The answer header naming what of the request a channel other than Claude's never received. */
export const droppedHeader = 'x-modelgate-dropped';

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
 * The reply of an Anthropic front job, adding `x-modelgate-dropped` to a successful answer (whole or the
 * stream's headers) when a channel other than Claude's served it. A Claude adaptor marks the request when it
 * builds the upstream call (`sentToClaude`); after a failed Claude attempt retried on another channel the
 * mark stays and the header is left out.
 */
export function reportingDropped(reply: RelayReply, dropped: string[], request: ChatRequest): RelayReply {
  if (dropped.length === 0) return reply;
  const value = headerValue(dropped);
  const withDropped = (headers: Record<string, string>) =>
    claudeRequestOriginal(request)?.sentToClaude ? headers : { ...headers, [droppedHeader]: value };
  let status = 200;
  const reporting: RelayReply = {
    raw: reply.raw,
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
