import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { onRequestAsyncHookHandler } from 'fastify';
import type { AppContext } from '../../context.js';
import { authenticateRelay, type RelayPrincipal } from '../../relay/auth/token-auth.js';
import type { RelayReply } from '../../relay/pipeline/relay-job.js';
import { corsHeaders, preflightHeaders } from './cors.js';
import { openAIErrorAnswer, type ErrorAnswer } from './openai-error.js';
import { readRequestBody } from './request-body.js';

/** One authenticated /v1 request, its body read whole, as an endpoint handles it. */
export interface EntryCall {
  request: IncomingMessage;
  /** The route's path parameters (`:model`, `*`). */
  params: Record<string, string | undefined>;
  requestId: string;
  principal: RelayPrincipal;
  body: Buffer;
  /** Carries the request id and CORS headers already. */
  reply: RelayReply;
}

/** What one /v1 route does once its caller is known, and the little that differs between routes. */
export interface RelayEndpoint {
  bodyLimitBytes: number;
  handle(call: EntryCall): Promise<void>;
  /** The token as an Authorization value (default: the Authorization header); `url` has the query (`?key=`). */
  authorization?(headers: IncomingHttpHeaders, url: string | undefined): string | undefined;
  /** A failure in the front's error shape (default: OpenAI's error object). */
  errorAnswer?: ErrorAnswer;
}

/** A route of the relay's table: Fastify mounts every one, the fast path serves the busiest. */
export interface RelayRoute {
  method:
    'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | ('GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD')[];
  path: string;
  endpoint: RelayEndpoint;
  /** A Fastify hook run first (the dashboard's rate limit); such routes never take the fast path. */
  onRequest?: onRequestAsyncHookHandler;
}

/** Node's response behind the few calls the pipeline and the endpoints make. */
class EntryReply implements RelayReply {
  private code = 200;

  constructor(
    readonly raw: ServerResponse,
    private readonly values: Record<string, string>,
  ) {}

  status(code: number): RelayReply {
    this.code = code;
    return this;
  }

  headers(values: Record<string, string>): RelayReply {
    Object.assign(this.values, values);
    return this;
  }

  send(body: Buffer): void {
    this.values['content-length'] = String(body.length);
    this.raw.writeHead(this.code, this.values);
    this.raw.end(body);
  }

  getHeaders(): Record<string, string> {
    return this.values;
  }
}

/** The headers of every relay answer. */
const headersOf = (request: IncomingMessage, requestId: string): Record<string, string> => ({
  'x-oneapi-request-id': requestId,
  ...corsHeaders(request.headers.origin),
});

/** Sends a JSON answer on a reply. */
export function sendJson(reply: RelayReply, status: number, value: unknown): void {
  reply
    .status(status)
    .headers({ 'content-type': 'application/json; charset=utf-8' })
    .send(Buffer.from(JSON.stringify(value)));
}

/**
 * The one entry of every /v1 request, whichever server accepted it (Fastify's route or the fast path beside
 * it): request id and CORS headers, the body (gzip, chunked, size limit), the token check, the endpoint, and
 * any failure in the endpoint's error shape, each written here once (decision 0022).
 */
export class RelayEntry {
  constructor(
    private readonly context: AppContext,
    /** The client's address under the trusted-proxy rules (token subnets). */
    private readonly clientAddress: (request: IncomingMessage) => string,
  ) {}

  /**
   * Answers one request; never rejects (a failure that cannot be answered closes the connection). `body` is
   * given when the request did not carry it (a message on a WebSocket connection `request` opened).
   */
  async serve(
    request: IncomingMessage,
    response: ServerResponse,
    endpoint: RelayEndpoint,
    params: Record<string, string | undefined>,
    requestId: string,
    body?: Buffer,
  ): Promise<void> {
    const reply = new EntryReply(response, headersOf(request, requestId));
    try {
      body ??= await readRequestBody(request, endpoint.bodyLimitBytes);
      const { headers } = request;
      const authorization = endpoint.authorization
        ? endpoint.authorization(headers, request.url)
        : headers.authorization;
      const principal = await authenticateRelay(this.context, authorization, this.clientAddress(request));
      await endpoint.handle({ request, params, requestId, principal, body, reply });
    } catch (error) {
      if (response.headersSent || response.destroyed) return;
      this.sendFailure(error, request, reply, endpoint, requestId);
    }
  }

  /** A CORS preflight, answered without a token. */
  preflight(request: IncomingMessage, response: ServerResponse, requestId: string): void {
    response.writeHead(204, { ...headersOf(request, requestId), ...preflightHeaders(request.headers) }).end();
  }

  private sendFailure(
    error: unknown,
    request: IncomingMessage,
    reply: EntryReply,
    endpoint: RelayEndpoint,
    requestId: string,
  ): void {
    const render = endpoint.errorAnswer ?? openAIErrorAnswer;
    try {
      const { status, body } = render(error, requestId, request.headers['accept-language'], (failure) =>
        this.context.logger.error({ err: failure, requestId }, 'relay failed'),
      );
      sendJson(reply, status, body);
    } catch (failure) {
      this.context.logger.error({ err: failure, requestId }, 'the relay entry failed to answer');
      reply.raw.destroy();
    }
  }
}
