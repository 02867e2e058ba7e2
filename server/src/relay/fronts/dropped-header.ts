import type { ChannelSettings } from '../adaptor.js';
import type { FrontOutput } from '../pipeline/relay-job.js';

/** The answer header naming what of a converting front's request the channel that answered never received. */
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
 * A converting front's `answerHeaders` (see FrontOutput): `x-modelgate-dropped` lists what its conversion left
 * out (`dropped`) unless the channel that answered got the client's request as it was (`sentNatively`). The
 * pipeline asks with the channel of the attempt that answered, so after a retry the header describes that one.
 */
export function droppedHeaders(
  dropped: string[],
  sentNatively: (channel: ChannelSettings) => boolean,
): FrontOutput['answerHeaders'] {
  if (dropped.length === 0) return undefined;
  const value = headerValue(dropped);
  return (channel): Record<string, string> => (sentNatively(channel) ? {} : { [droppedHeader]: value });
}

/**
 * The `sentNatively` check of a front whose original (the request as the client sent it, riding on the
 * converted one) its vendor's adaptors mark with the channel they built an upstream request from it for.
 * Only the last attempt's channel is kept: a failed native attempt does not speak for the channel after it.
 */
export const sentWholeTo =
  (original: { sentToChannel?: number } | undefined) =>
  (channel: ChannelSettings): boolean =>
    original?.sentToChannel === channel.id;
