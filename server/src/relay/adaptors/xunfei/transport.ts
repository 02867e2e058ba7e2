import WebSocket from 'ws';
import type { UpstreamRequest } from '../../adaptor.js';
import { transportError } from '../../upstream-error.js';

/** An answer read from a socket: frames come as newline-separated JSON, like an NDJSON HTTP body. */
export interface SocketResponse {
  status: number;
  headers: Record<string, string>;
  body: AsyncIterable<Buffer>;
  discard(): void;
}

/** A push queue read as an async iterable (frames arrive by event, the adaptor reads by pulling). */
class FrameQueue implements AsyncIterable<Buffer> {
  private readonly items: Buffer[] = [];
  private waiting: (() => void) | undefined;
  private ended = false;
  private failure: unknown;

  push(item: Buffer): void {
    this.items.push(item);
    this.wake();
  }

  end(failure?: unknown): void {
    this.ended = true;
    this.failure ??= failure;
    this.wake();
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Buffer> {
    for (;;) {
      const item = this.items.shift();
      if (item) {
        yield item;
        continue;
      }
      if (this.ended) {
        if (this.failure) throw this.failure;
        return;
      }
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }
}

async function* once(body: Buffer): AsyncIterable<Buffer> {
  yield body;
}

/**
 * Opens the signed Spark socket, sends the request frame and returns the server's frames as they arrive.
 * A refused handshake (401/403 with a JSON message) is returned as a normal non-2xx answer so the adaptor's
 * readError maps it; a socket that cannot be reached is a retryable transport error.
 */
export function openSparkSocket(
  request: UpstreamRequest,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<SocketResponse> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(request.url, { handshakeTimeout: options.timeoutMs || undefined });
    const queue = new FrameQueue();
    let settled = false;
    // An abort (client gone, relay timeout) must end the answer with an error, not as if Spark had finished.
    const abort = () => {
      const error = transportError(new Error('the Spark call was aborted'), true);
      if (!settled) {
        settled = true;
        reject(error);
      }
      queue.end(error);
      socket.terminate();
    };
    if (options.signal?.aborted) queueMicrotask(abort);
    else options.signal?.addEventListener('abort', abort, { once: true });
    const finish = () => options.signal?.removeEventListener('abort', abort);

    socket.on('unexpected-response', (_request, response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        settled = true;
        finish();
        const headers: Record<string, string> = {
          'content-type': String(response.headers['content-type'] ?? 'application/json'),
        };
        resolve({
          status: response.statusCode ?? 500,
          headers,
          body: once(Buffer.concat(chunks)),
          discard: () => undefined,
        });
        socket.terminate();
      });
    });
    socket.on('open', () => {
      settled = true;
      socket.send(String(request.body ?? ''));
      resolve({
        status: 200,
        headers: { 'content-type': 'application/x-ndjson' },
        body: queue,
        discard: () => socket.terminate(),
      });
    });
    socket.on('message', (data: WebSocket.RawData) => {
      const frame = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      queue.push(Buffer.concat([frame, Buffer.from('\n')]));
    });
    socket.on('close', () => {
      finish();
      queue.end();
    });
    socket.on('error', (error) => {
      finish();
      if (!settled) {
        settled = true;
        reject(transportError(error, /timeout/i.test(error.message)));
        return;
      }
      queue.end(transportError(error, false));
    });
  });
}

/** Reads a whole socket answer into one buffer (non-stream calls). */
export async function readSocketBody(body: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}
