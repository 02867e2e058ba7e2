import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One request a mock upstream received, kept for assertions. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** Header values, repeated ones joined with `, `. */
  headers: Record<string, string>;
  body: string;
  /** The body parsed as a JSON object, undefined when it is not one. */
  json: Record<string, unknown> | undefined;
}

/** How a mock answers. */
export interface MockReply {
  /** JSON with a status (vendors that fail with HTTP 200 pass 200); a string is sent as already serialised. */
  json(status: number, value: unknown, headers?: Record<string, string>): void;
  /** A stream written in a few pieces, cut mid-line, so parsers must reassemble lines. */
  stream(contentType: string, body: string | Buffer, status?: number): Promise<void>;
  raw(status: number, headers: Record<string, string>, body: string | Buffer): void;
}

export type MockHandler = (request: RecordedRequest, reply: MockReply) => unknown;

export interface MockUpstream {
  /** `http://127.0.0.1:<port>`, to be used as the channel's base URL. */
  url: string;
  requests: RecordedRequest[];
  /** The HTTP server itself (Spark's mock adds its WebSocket upgrade to it). */
  server: Server;
  /** Answers the next request with this error instead of the normal handler. */
  failNext(status: number, body: unknown, headers?: Record<string, string>): void;
  close(): Promise<void>;
}

const adaptorsFolder = join(dirname(fileURLToPath(import.meta.url)), '../../src/relay/adaptors');

/** The path of an adaptor's recorded fixture (`relay/adaptors/<vendor>/__fixtures__/<name>`). */
export const fixturePath = (vendor: string, name: string): string => join(adaptorsFolder, vendor, '__fixtures__', name);

/** Reads a recorded fixture of an adaptor as text. */
export const fixture = (vendor: string, name: string): string => readFileSync(fixturePath(vendor, name), 'utf8');

/** The same fixture as bytes, as an upstream answer's body. */
export const fixtureBytes = (vendor: string, name: string): Buffer => readFileSync(fixturePath(vendor, name));

export const fixtureJson = (vendor: string, name: string): unknown => JSON.parse(fixture(vendor, name));

function replyTo(response: ServerResponse): MockReply {
  return {
    json(status, value, headers = {}) {
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      response.end(typeof value === 'string' ? value : JSON.stringify(value));
    },
    async stream(contentType, body, status = 200) {
      response.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-cache' });
      const bytes = Buffer.from(body);
      const pieceSize = Math.max(16, Math.ceil(bytes.length / 5));
      for (let start = 0; start < bytes.length; start += pieceSize) {
        response.write(bytes.subarray(start, start + pieceSize));
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      response.end();
    },
    raw(status, headers, body) {
      response.writeHead(status, headers);
      response.end(body);
    },
  };
}

async function readRequest(request: IncomingMessage): Promise<RecordedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  let json: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      json = parsed as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers))
    headers[name] = Array.isArray(value) ? value.join(', ') : (value ?? '');
  return { method: request.method ?? 'GET', path: url.pathname, query: url.searchParams, headers, body, json };
}

/** Starts an HTTP mock on 127.0.0.1 with a random port; every request is recorded before `handler` runs. */
export async function startMockUpstream(handler: MockHandler): Promise<MockUpstream> {
  const requests: RecordedRequest[] = [];
  let pendingFailure: { status: number; body: unknown; headers?: Record<string, string> } | undefined;
  const server = createServer((request, response) => {
    void readRequest(request)
      .then(async (recorded) => {
        requests.push(recorded);
        const reply = replyTo(response);
        const failure = pendingFailure;
        pendingFailure = undefined;
        if (failure) return reply.json(failure.status, failure.body, failure.headers);
        await handler(recorded, reply);
      })
      .catch((error: unknown) => {
        if (!response.headersSent) replyTo(response).json(500, { message: `mock failure: ${String(error)}` });
        else response.end();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    server,
    failNext(status, body, headers) {
      pendingFailure = { status, body, headers };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
