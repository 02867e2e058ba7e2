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
 * The reply of a converting front's job, adding `x-modelgate-dropped` (what the conversion left out) to a
 * successful answer (whole, or the stream's headers) unless `servedWhole` says a channel got the client's
 * request as it was. For the Responses front that is the Responses original's `sentNatively`, which the
 * adaptor sets when it builds the upstream call and clears when a later attempt converts. (The Anthropic
 * front's `reportingDropped` is the same with its Claude mark: the two could become this one.)
 */
export function reportingDroppedUnless(reply: RelayReply, dropped: string[], servedWhole: () => boolean): RelayReply {
  if (dropped.length === 0) return reply;
  const value = headerValue(dropped);
  const withDropped = (headers: Record<string, string>) =>
    servedWhole() ? headers : { ...headers, [droppedHeader]: value };
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
