import type { RelayChunk } from '../../src/relay/adaptor.js';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One request the mock received, kept for assertions. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** The body parsed as JSON, undefined when it is not JSON. */
  json: unknown;
}

/** How a mock answers. */
export interface MockReply {
  json(status: number, value: unknown, headers?: Record<string, string>): void;
  /** A stream written in a few pieces (so clients see it arrive in parts). */
  stream(contentType: string, body: string | Buffer, status?: number): Promise<void>;
  raw(status: number, headers: Record<string, string>, body: string | Buffer): void;
}

export type MockHandler = (request: RecordedRequest, reply: MockReply) => void | Promise<void>;

export interface MockUpstream {
  /** `http://127.0.0.1:<port>`, to be used as a channel's base_url. */
  url: string;
  requests: RecordedRequest[];
  /** Answers the next request with this error instead of the normal handler. */
  failNext(status: number, body: unknown, headers?: Record<string, string>): void;
  close(): Promise<void>;
}

const adaptorsFolder = join(dirname(fileURLToPath(import.meta.url)), '../../src/relay/adaptors');

/** A recorded fixture of one adaptor (`__fixtures__/<name>`). */
export const fixture = (vendor: string, name: string): Buffer =>
  readFileSync(join(adaptorsFolder, vendor, '__fixtures__', name));
export const fixtureJson = (vendor: string, name: string): unknown =>
  JSON.parse(fixture(vendor, name).toString('utf8'));

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function makeReply(response: ServerResponse): MockReply {
  return {
    json(status, value, headers = {}) {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(value));
    },
    async stream(contentType, body, status = 200) {
      response.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-cache' });
      const bytes = Buffer.from(body);
      const pieces = 3;
      const size = Math.ceil(bytes.length / pieces);
      for (let offset = 0; offset < bytes.length; offset += size) {
        response.write(bytes.subarray(offset, offset + size));
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

/** Starts a loopback HTTP server speaking one vendor's protocol through `handler`. */
export async function startMockUpstream(handler: MockHandler): Promise<MockUpstream> {
  const requests: RecordedRequest[] = [];
  let pendingFailure: { status: number; body: unknown; headers?: Record<string, string> } | undefined;
  const server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      let json: unknown;
      try {
        json = JSON.parse(body.toString('utf8'));
      } catch {
        json = undefined;
      }
      const recorded: RecordedRequest = {
        method: request.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: request.headers,
        body,
        json,
      };
      requests.push(recorded);
      const reply = makeReply(response);
      if (pendingFailure) {
        const failure = pendingFailure;
        pendingFailure = undefined;
        reply.json(failure.status, failure.body, failure.headers);
        return;
      }
      await handler(recorded, reply);
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(`mock failure: ${String(error)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
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

/** Sends an upstream request description (from an adaptor's buildRequest) to a mock, the way the pipeline would. */
export async function sendTo(request: {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: Buffer | string;
}) {
  const requestBody =
    typeof request.body === 'string' || request.body === undefined ? request.body : new Uint8Array(request.body);
  const response = await fetch(request.url, { method: request.method, headers: request.headers, body: requestBody });
  const body = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  return { status: response.status, headers, body };
}

/** Bytes cut into small pieces (mid-line, mid-character), as a network delivers them. */
export async function* pieces(bytes: Buffer | string, size = 7): AsyncIterable<Buffer> {
  const buffer = Buffer.from(bytes);
  for (let start = 0; start < buffer.length; start += size) yield buffer.subarray(start, start + size);
}

/** A converted stream collected: parsed chunks, joined content, tool calls merged by index, last usage and finish. */
export async function collect(chunks: AsyncIterable<RelayChunk>) {
  // Tests read the chunks loosely.
  const parsed: any[] = [];
  let content = '';
  let reasoning = '';
  let usage: RelayChunk['usage'];
  let finishReason: string | null = null;
  const toolCalls: { id?: string; name?: string; arguments: string }[] = [];
  for await (const chunk of chunks) {
    const value = JSON.parse(chunk.data);
    parsed.push(value);
    if (chunk.usage) usage = chunk.usage;
    for (const choice of value.choices ?? []) {
      content += choice.delta?.content ?? '';
      reasoning += choice.delta?.reasoning_content ?? '';
      if (choice.finish_reason) finishReason = choice.finish_reason;
      for (const call of choice.delta?.tool_calls ?? []) {
        const slot = (toolCalls[call.index] ??= { arguments: '' });
        if (call.id) slot.id = call.id;
        if (call.function?.name) slot.name = call.function.name;
        slot.arguments += call.function?.arguments ?? '';
      }
    }
  }
  return { chunks: parsed, content, reasoning, usage, finishReason, toolCalls };
}
