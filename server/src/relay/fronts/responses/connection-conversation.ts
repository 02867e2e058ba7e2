import type { IncomingMessage } from 'node:http';
import type { ResponsesInputItem, ResponsesOutputItem } from './types.js';

/**
 * What a Responses WebSocket connection remembers, as OpenAI's connection-local cache does: the conversation up
 * to its latest response, so that the next `response.create` continues it with `previous_response_id` and only
 * the new items even when nothing was stored (`store: false`, which Codex sends). Only the latest response is
 * kept, in memory, for as long as the connection lasts; an older one is found only if it was stored.
 */
export class ConnectionConversation {
  private latest: { id: string; items: ResponsesInputItem[] } | undefined;

  /** The items continuing `previousResponseId` with `input`, or undefined when it is not this connection's latest. */
  after(previousResponseId: string, input: ResponsesInputItem[]): ResponsesInputItem[] | undefined {
    return this.latest?.id === previousResponseId ? [...this.latest.items, ...input] : undefined;
  }

  /** A response of this connection: its whole input (earlier turns included) and its output. */
  remember(id: string, input: ResponsesInputItem[], output: ResponsesOutputItem[]): void {
    this.latest = { id, items: [...input, ...(output as unknown as ResponsesInputItem[])] };
  }
}

/** The conversation of each open connection, by its handshake request (which each of its turns carries). */
const conversations = new WeakMap<IncomingMessage, ConnectionConversation>();

/** The conversation of the WebSocket connection `request` opened, or undefined for a plain HTTP request. */
export const connectionConversation = (request: IncomingMessage) => conversations.get(request);

/** Starts the conversation of a connection opened by `request`. */
export function openConnectionConversation(request: IncomingMessage): ConnectionConversation {
  const conversation = new ConnectionConversation();
  conversations.set(request, conversation);
  return conversation;
}
