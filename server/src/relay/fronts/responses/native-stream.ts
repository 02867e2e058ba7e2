import type { Usage } from '../../adaptor.js';
import { finalResponseEvents, usageOfResponse } from '../../adaptors/openai/responses-answer.js';
import { isObject, stringOf, tryParseObject } from '../../adaptors/openai-kit/json.js';
import type { NativeStream } from '../../pipeline/relay-job.js';
import { responseObject, type ResponseContext } from './response.js';
import type { ResponsesEvent, ResponsesOutputItem, ResponsesResponse } from './types.js';

/**
 * An upstream's response object as this gateway's: its id and creation time (those it is stored under, so
 * that GET and `previous_response_id` find it here until it expires) and what it echoes of the client's
 * request that the upstream was never sent (`previous_response_id`, `store`). The rest is the upstream's.
 * Made in place, keeping the upstream's key order: the object is one the caller has just parsed (a copy cost
 * as much as parsing it again).
 */
export function ownResponse(upstream: Record<string, unknown>, context: ResponseContext): ResponsesResponse {
  upstream.id = context.id;
  upstream.created_at = context.createdAt;
  upstream.previous_response_id = context.request.previous_response_id ?? null;
  upstream.store = context.request.store !== false;
  return upstream as unknown as ResponsesResponse;
}

const sseEvent = (event: Record<string, unknown> & { type: string }) =>
  `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

/** The `type` of a Responses event's JSON: read from its start (where OpenAI writes it), parsed otherwise. */
function eventType(data: string): string | undefined {
  const type = /^\{\s*"type"\s*:\s*"([^"]+)"/.exec(data)?.[1];
  if (type) return type;
  const parsed = tryParseObject(data);
  return typeof parsed?.type === 'string' ? parsed.type : undefined;
}

/**
 * A Responses stream on the native road (the Responses front on a channel that serves `/v1/responses`): its
 * events go on in the upstream's order and sequence numbers, as its bytes came, except those carrying the
 * response object (created, in_progress, completed …), which is made the gateway's (ownResponse). Only those
 * are parsed; the final one (completed, incomplete or failed) gives the usage and `finalResponse`, handed to
 * `finished` (to be stored). When the stream ends without one (the upstream broke off), `fail` ends it the way
 * OpenAI does: response.failed with the items finished so far.
 */
export class NativeEventRelay implements NativeStream {
  closing = false;
  ended = false;
  private response: ResponsesResponse | undefined;
  /** The last event's payload (its sequence number numbers a closing response.failed). */
  private lastEvent = '';
  /** output_item.done payloads, read only for a response.failed the gateway writes. */
  private readonly finishedItems: string[] = [];
  /** Delta payloads, read only when the stream ends without its final event. */
  private readonly deltas: string[] = [];
  /** The final response, once the stream has ended with one: what is stored. */
  finalResponse: ResponsesResponse | undefined;

  constructor(
    private readonly context: ResponseContext,
    private readonly finished: (response: ResponsesResponse) => void = () => {},
  ) {}

  event(data: string): string | undefined {
    if (this.ended) return '';
    this.lastEvent = data;
    const type = eventType(data) ?? '';
    if (type.endsWith('.delta')) {
      this.deltas.push(data);
      return undefined;
    }
    if (type === 'response.output_item.done') this.finishedItems.push(data);
    // An `error` event ends a stream as well; it has no response to store.
    if (type === 'error') this.ended = true;
    // The events named `response.<state>` carry the response object.
    if (!type.startsWith('response.') || type.includes('.', 'response.'.length)) return undefined;
    const event = tryParseObject(data) as ResponsesEvent | undefined;
    if (!event || !isObject(event.response)) return undefined;
    this.response = ownResponse(event.response, this.context);
    if (finalResponseEvents.has(type)) this.finish(this.response);
    return sseEvent(event);
  }

  private finish(response: ResponsesResponse): void {
    this.finalResponse = response;
    this.closing = true;
    this.ended = true;
    this.finished(response);
  }

  result(): { usage?: Usage; text: string } {
    const response = this.finalResponse as unknown as Record<string, unknown> | undefined;
    const usage = response && usageOfResponse(response.usage, response.output);
    if (usage) return { usage, text: '' };
    let text = '';
    for (const data of this.deltas) text += stringOf(tryParseObject(data)?.delta);
    return { text };
  }

  fail(message: string, code = 'server_error'): string {
    if (this.ended) return '';
    const sequence = Number(/"sequence_number"\s*:\s*(\d+)/.exec(this.lastEvent)?.[1] ?? -1);
    const items = this.finishedItems.map((data) => tryParseObject(data)?.item as unknown as ResponsesOutputItem);
    const response = this.response ?? responseObject(this.context, 'in_progress', [], null);
    this.finish({ ...response, status: 'failed', output: items, error: { code, message } });
    return sseEvent({ type: 'response.failed', sequence_number: sequence + 1, response: this.finalResponse });
  }
}
