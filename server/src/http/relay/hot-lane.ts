import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../../context.js';
import { newRequestId } from '../../lib/request-id.js';
import type { RelayMode } from '../../relay/adaptor.js';
import { authenticateRelay } from '../../relay/auth/token-auth.js';
import type { RelayReply } from '../../relay/pipeline/relay-job.js';
import type { RelayRuntime } from '../../relay/runtime.js';
import { corsHeaders } from './cors.js';
import { openAIErrorAnswer } from './openai-error.js';
import { jsonLimitBytes, runRelay } from './relay.routes.js';

/** The routes most calls take. Everything else, and anything unusual about these, goes through Fastify. */
const hotRoutes = new Map<string, RelayMode>([
  ['/v1/chat/completions', 'chat'],
  ['/v1/completions', 'completions'],
  ['/v1/embeddings', 'embeddings'],
]);

/** The few calls of Fastify's reply that the pipeline makes, on Node's response. */
class RawReply implements RelayReply {
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

  hijack(): void {}

  getHeaders(): Record<string, string> {
    return this.values;
  }
}

/** Reads the body (Node's parser holds it to Content-Length); a client that leaves midway rejects it. */
function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let received = 0;
    let ended = false;
    request.on('data', (part: Buffer) => {
      received += part.length;
      parts.push(part);
    });
    request.once('end', () => {
      ended = true;
      resolve(parts.length === 1 ? parts[0]! : Buffer.concat(parts, received));
    });
    request.once('error', reject);
    request.once('close', () => {
      if (!ended) reject(new Error('the client left before its request body was read'));
    });
  });
}

/**
 * The hot lane: a JSON POST to chat, completions or embeddings with a Content-Length within the limit runs
 * straight on Node's request, without Fastify's per-request machinery, which with our hooks cost 15-25 µs of
 * CPU per call (decision 0007). The answers are the same as Fastify's: request id, CORS, client address, token checks, OpenAI error objects.
 * Compressed or chunked bodies, query strings and other routes take the Fastify path, as does everything
 * once the server is closing.
 */
export class RelayHotLane {
  private closing = false;

  constructor(
    private readonly context: AppContext,
    private readonly runtime: RelayRuntime,
    /** The client's address as Fastify's `request.ip` gives it (token subnets). */
    private readonly clientAddress: (request: IncomingMessage) => string,
  ) {}

  /** Takes the request if it is the lane's to serve; false leaves it to Fastify. */
  take(request: IncomingMessage, response: ServerResponse): boolean {
    if (this.closing || request.method !== 'POST') return false;
    const url = request.url ?? '';
    const mode = hotRoutes.get(url);
    const length = Number(request.headers['content-length']);
    if (!mode || !(length > 0 && length <= jsonLimitBytes) || request.headers['content-encoding']) return false;
    this.serve(request, response, mode, url).catch((error: unknown) => {
      this.context.logger.error({ err: error }, 'the relay hot lane failed to answer');
      response.destroy();
    });
    return true;
  }

  /** From now on Fastify answers every request (with its 503 while closing). */
  close(): void {
    this.closing = true;
  }

  private async serve(request: IncomingMessage, response: ServerResponse, mode: RelayMode, url: string): Promise<void> {
    const requestId = newRequestId();
    const reply = new RawReply(response, {
      'x-oneapi-request-id': requestId,
      ...corsHeaders(request.headers.origin),
    });
    try {
      const body = await readBody(request);
      const { authorization } = request.headers;
      const principal = await authenticateRelay(this.context, authorization, this.clientAddress(request));
      await runRelay(this.context, this.runtime, {
        principal,
        mode,
        url,
        requestId,
        headers: request.headers,
        body,
        reply,
      });
    } catch (error) {
      if (response.headersSent || response.destroyed) return;
      const { status, body } = openAIErrorAnswer(error, requestId, request.headers['accept-language'], (failure) =>
        this.context.logger.error({ err: failure, requestId }, 'relay failed'),
      );
      reply
        .status(status)
        .headers({ 'content-type': 'application/json; charset=utf-8' })
        .send(Buffer.from(JSON.stringify(body)));
    }
  }
}
