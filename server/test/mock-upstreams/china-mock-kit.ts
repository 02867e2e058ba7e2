import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/** One request a mock upstream received, kept for assertions. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: string;
  json: Record<string, unknown> | undefined;
}

export interface MockUpstream {
  /** `http://127.0.0.1:<port>`, to be used as the channel's base URL. */
  url: string;
  requests: RecordedRequest[];
  server: Server;
  close(): Promise<void>;
}

export type MockHandler = (request: RecordedRequest, response: ServerResponse) => unknown;

/** Reads a recorded fixture of an adaptor (`relay/adaptors/<vendor>/__fixtures__/<name>`). */
export function fixture(vendor: string, name: string): string {
  const path = fileURLToPath(new URL(`../../src/relay/adaptors/${vendor}/__fixtures__/${name}`, import.meta.url));
  return readFileSync(path, 'utf8');
}

/** Answers JSON with a status (vendors that fail with HTTP 200 pass 200). */
export function sendJson(response: ServerResponse, status: number, payload: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
}

/** Replays an SSE fixture in a few pieces, cut mid-line, so parsers must reassemble lines. */
export async function sendEventStream(response: ServerResponse, text: string): Promise<void> {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const pieceSize = Math.max(16, Math.ceil(text.length / 5));
  for (let start = 0; start < text.length; start += pieceSize) {
    response.write(text.slice(start, start + pieceSize));
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  response.end();
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
  const server = createServer((request, response) => {
    void readRequest(request)
      .then(async (recorded) => {
        requests.push(recorded);
        await handler(recorded, response);
      })
      .catch((error: unknown) => {
        if (!response.headersSent) sendJson(response, 500, { message: String(error) });
        else response.end();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
