import { finalResponseEvents } from '../../adaptors/openai/responses-answer.js';
import { isObject } from '../../adaptors/openai-kit/json.js';
import { responseObject, type ResponseContext } from './response.js';
import type { ResponsesEvent, ResponsesOutputItem, ResponsesResponse } from './types.js';

/**
 * An upstream's response object as this gateway's: its id and creation time (those it is stored under, so
 * that GET and `previous_response_id` find it here until it expires) and what it echoes of the client's
 * request that the upstream was never sent (`previous_response_id`, `store`). The rest is the upstream's.
 */
export function ownResponse(upstream: Record<string, unknown>, context: ResponseContext): ResponsesResponse {
  return {
    ...upstream,
    id: context.id,
    created_at: context.createdAt,
    previous_response_id: context.request.previous_response_id ?? null,
    store: context.request.store !== false,
  } as unknown as ResponsesResponse;
}

const sseEvent = (event: Record<string, unknown> & { type: string }) =>
  `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

/**
 * Sends a natively served Responses stream on event for event, in the upstream's order and sequence numbers,
 * with its response objects made the gateway's (ownResponse). The final event (completed, incomplete or
 * failed) gives `result`. When the stream ends without one (the upstream broke off), `fail` ends it the way
 * OpenAI does: response.failed with the items finished so far.
 */
export class NativeEventRelay {
  private lastSequenceNumber = -1;
  private response: ResponsesResponse | undefined;
  private readonly finishedItems: ResponsesOutputItem[] = [];
  private ended = false;
  /** The final response, once the stream has ended with one: what is stored. */
  result: ResponsesResponse | undefined;

  constructor(private readonly context: ResponseContext) {}

  accept(event: ResponsesEvent): string {
    if (this.ended) return '';
    if (typeof event.sequence_number === 'number') this.lastSequenceNumber = event.sequence_number;
    let sent = event;
    if (isObject(event.response)) {
      this.response = ownResponse(event.response, this.context);
      sent = { ...event, response: this.response };
    }
    if (event.type === 'response.output_item.done' && isObject(event.item))
      this.finishedItems.push(event.item as unknown as ResponsesOutputItem);
    if (finalResponseEvents.has(event.type)) this.result = this.response;
    // An `error` event ends a stream as well; it has no response to store.
    if (this.result || event.type === 'error') this.ended = true;
    return sseEvent(sent);
  }

  fail(message: string, code = 'server_error'): string {
    if (this.ended) return '';
    this.ended = true;
    const response = this.response ?? responseObject(this.context, 'in_progress', [], null);
    this.result = { ...response, status: 'failed', output: this.finishedItems, error: { code, message } };
    return sseEvent({ type: 'response.failed', sequence_number: this.lastSequenceNumber + 1, response: this.result });
  }
}
