import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { FastifyInstance } from 'fastify';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { previousResponseNotFound } from '../../domain/response/response.errors.js';
import { newRequestId } from '../../lib/request-id.js';
import { nowSeconds } from '../../lib/time.js';
import { isObject, tryParseObject } from '../../relay/adaptors/openai-kit/json.js';
import { openConnectionConversation } from '../../relay/fronts/responses/connection-conversation.js';
import { inputItemsOf } from '../../relay/fronts/responses/request.js';
import { responseId, responseObject } from '../../relay/fronts/responses/response.js';
import { relayErrors } from '../../relay/relay-errors.js';
import type { RelayEndpoint, RelayEntry } from './relay-entry.js';
import { sendJson } from './relay-entry.js';
import { parseCreateBody } from './responses-front.routes.js';

/*
 * The Responses API's WebSocket mode, as OpenAI serves it and Codex uses it. What this relies on:
 * - The client opens `GET /v1/responses` with `Upgrade: websocket` and its key in `Authorization: Bearer`, as
 *   on HTTP; Codex adds `OpenAI-Beta: responses_websockets=2026-02-06` and its session headers. A refusal is the
 *   handshake's HTTP answer, whose status and body Codex reads (codex-rs/codex-api/src/endpoint/
 *   responses_websocket.rs, map_ws_error); a 404 there makes it retry, then fall back to HTTP.
 * - A turn is one text message `{"type":"response.create", …}` carrying the fields of `POST /v1/responses` at
 *   its top level (OpenAI's "WebSocket events" reference; Codex's ResponsesWsRequest is serde-tagged by `type`
 *   with the request's fields beside it). `stream` is implied, `background` is not supported. Codex also sends
 *   `{"type":"response.processed","response_id":…}`, which needs no answer, and may warm a connection up with
 *   `generate: false`: no model output, but a response id the next turn continues (OpenAI's WebSocket mode
 *   guide).
 * - Each event of the HTTP stream comes back as one text message, the JSON of its SSE `data:`; a turn ends with
 *   response.completed (or .incomplete, .failed), the connection stays open for the next one, and turns on one
 *   connection run one after the other (the guide: sequential, no multiplexing).
 * - A failure is `{"type":"error","status":<HTTP status>,"error":{…}}` in the HTTP answer's error object; Codex
 *   treats its status as the HTTP one (retrying 429 and 5xx) and needs it to tell an error from a stream event.
 * - `previous_response_id` continues the connection's latest response even with `store: false` (connection-
 *   local state, the guide); Codex sends only the new items with it. See connection-conversation.ts.
 * Each turn goes through the relay entry and the `POST /v1/responses` endpoint as an HTTP call with
 * `stream: true` does (token check, routing, billing, retries, errors), its answer written to a SocketResponse.
 */

/**
 * The Node response a turn's answer is written to, sending it on the WebSocket: each event of an event stream
 * as one message, a JSON answer whole (an error as an `error` event). It ends when the turn's answer ended; the
 * connection closing first destroys it, which cancels the call as a client leaving an HTTP stream does (the
 * relay's `close` listener sees it unfinished).
 */
class SocketResponse extends Writable {
  headersSent = false;
  private status = 200;
  private eventStream = false;
  private readonly decoder = new StringDecoder('utf8');
  private text = '';

  constructor(
    private readonly socket: WebSocket,
    /** The handshake request, whose headers each turn carries (the relay reads the session's clues there). */
    readonly req: IncomingMessage,
  ) {
    super({ decodeStrings: false });
    // A send fails only when the connection closed, which cancels the turn (serveConnection's close listener).
    this.on('error', () => {});
  }

  writeHead(status: number, headers: Record<string, string>): this {
    this.status = status;
    this.eventStream = (headers['content-type'] ?? '').startsWith('text/event-stream');
    this.headersSent = true;
    return this;
  }

  /** Nothing to flush: the handshake was the only HTTP answer. */
  flushHeaders(): void {}

  override _write(chunk: string | Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void) {
    this.text += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    if (!this.eventStream) return callback();
    // Events are written whole, but a chunk may still end inside one.
    const end = this.text.lastIndexOf('\n\n');
    if (end < 0) return callback();
    const events = this.text.slice(0, end);
    this.text = this.text.slice(end + 2);
    const messages = events.split('\n\n').flatMap(eventData);
    this.sendAll(messages, callback);
  }

  override _final(callback: (error?: Error | null) => void) {
    this.text += this.decoder.end();
    if (this.eventStream) return this.sendAll(this.text.split('\n\n').flatMap(eventData), callback);
    this.sendAll([answerMessage(this.status, this.text)], callback);
  }

  /** Sends messages in order; `callback` once the last one went out (back-pressure for the relay's writes). */
  private sendAll(messages: string[], callback: (error?: Error | null) => void) {
    if (messages.length === 0) return callback();
    if (this.socket.readyState !== WebSocket.OPEN) return callback(new Error('the WebSocket connection closed'));
    messages.forEach((message, index) =>
      this.socket.send(message, index === messages.length - 1 ? callback : undefined),
    );
  }
}

/** The JSON of one SSE event's `data:` lines (none for a comment or the `[DONE]` mark). */
function eventData(event: string): string[] {
  const data = event
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
    .join('\n');
  return data === '' || data === '[DONE]' ? [] : [data];
}

/**
 * A turn's JSON answer as a message: an error as OpenAI's WebSocket `error` event (with the HTTP status and the
 * answer's error object), a whole response object (a channel that answered without streaming) as its
 * `response.completed`.
 */
function answerMessage(status: number, body: string): string {
  const answer = tryParseObject(body);
  if (status >= 400)
    return JSON.stringify({ type: 'error', status, error: isObject(answer?.error) ? answer.error : answer });
  return JSON.stringify({ type: 'response.completed', sequence_number: 0, response: answer });
}

/** Whether an upgrade request opens the Responses API's WebSocket mode (`GET /v1/responses`). */
function opensResponses(request: IncomingMessage): boolean {
  const path = (request.url ?? '').split('?')[0]!.replace(/\/+$/, '');
  return request.method === 'GET' && path === '/v1/responses' && request.headers.upgrade?.toLowerCase() === 'websocket';
}

/** An HTTP answer on a socket Node handed over for an upgrade, as Node makes one for a plain request. */
function httpResponseOn(request: IncomingMessage, socket: Socket): ServerResponse {
  const response = new ServerResponse(request);
  response.shouldKeepAlive = false;
  response.assignSocket(socket);
  response.on('finish', () => socket.end());
  return response;
}

/**
 * Serves `GET /v1/responses` upgrades as the Responses API's WebSocket mode, every turn answered by `create`
 * (the `POST /v1/responses` endpoint) through `entry`. Any other upgrade request is answered by Fastify as the
 * plain request it was before (a 404 for an unknown path).
 */
export function serveResponsesWebSocket(app: FastifyInstance, entry: RelayEntry, create: RelayEndpoint): void {
  const sockets = new WebSocketServer({ noServer: true, maxPayload: create.bodyLimitBytes });

  app.server.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => {
    if (!opensResponses(request)) return void app.routing(request, httpResponseOn(request, socket));
    // The key is checked as for any call, a refusal answered in the Responses dialect before the upgrade.
    const response = httpResponseOn(request, socket);
    const handshake: RelayEndpoint = {
      ...create,
      handle: async () => {
        response.detachSocket(socket);
        sockets.handleUpgrade(request, socket, head, (connection) => serveConnection(connection, request));
      },
    };
    void entry.serve(request, response, handshake, {}, newRequestId(), Buffer.alloc(0));
  });
  // Open connections would hold the server's close; one in a turn is cancelled as a client leaving would.
  app.addHook('preClose', (done) => {
    for (const connection of sockets.clients) connection.close(1001, 'server closing');
    done();
  });

  function serveConnection(connection: WebSocket, request: IncomingMessage): void {
    const conversation = openConnectionConversation(request);
    /** A warm-up turn (`generate: false`): a response without output that the next turn can continue. */
    const warmUp: RelayEndpoint = {
      ...create,
      handle: async ({ body, reply }) => {
        const fields = parseCreateBody(body);
        const input = inputItemsOf(fields.input);
        const previous = fields.previous_response_id;
        const items = previous ? conversation.after(previous, input) : input;
        if (!items) throw previousResponseNotFound(previous!);
        const response = responseObject(
          { id: responseId(), createdAt: nowSeconds(), request: fields },
          'completed',
          [],
          null,
        );
        conversation.remember(response.id, items, []);
        sendJson(reply, 200, response);
      },
    };
    const refusal = (detail: string): RelayEndpoint => ({
      ...create,
      handle: () => Promise.reject(relayErrors.invalidRequest(detail)),
    });
    let current: SocketResponse | undefined;
    let turns = Promise.resolve();

    const turn = async (data: RawData) => {
      if (connection.readyState !== WebSocket.OPEN) return;
      const text = data.toString();
      const event = tryParseObject(text);
      if (event?.type === 'response.processed') return;
      let endpoint = create;
      let fields: Record<string, unknown> = {};
      if (!event) endpoint = refusal('a message is a JSON object, such as {"type":"response.create", …}');
      else if (event.type !== 'response.create')
        endpoint = refusal(`unsupported message type ${JSON.stringify(event.type)}; send "response.create"`);
      else {
        const { type: _type, generate, ...requestFields } = event;
        fields = { ...requestFields, stream: true };
        if (generate === false) endpoint = warmUp;
      }
      const response = new SocketResponse(connection, request);
      current = response;
      const ended = new Promise((resolve) => response.once('close', resolve));
      const body = Buffer.from(JSON.stringify(fields));
      await entry.serve(request, response as unknown as ServerResponse, endpoint, {}, newRequestId(), body);
      await ended;
      current = undefined;
    };
    connection.on('message', (data) => {
      turns = turns.then(() => turn(data));
    });
    connection.on('close', () => current?.destroy());
  }
}
