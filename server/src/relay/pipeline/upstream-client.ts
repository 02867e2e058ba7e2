import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Readable, pipeline } from 'node:stream';
import type { IncomingHttpHeaders } from 'node:http';
import { Pool, type Dispatcher } from 'undici';
import type { UpstreamRequest, UpstreamResponse } from '../adaptor.js';
import { isUpstreamError, transportError, unreadableAnswer } from '../upstream-error.js';
import type { Cancel } from './cancel.js';

/** An upstream answer whose body has not been read yet. */
export interface OpenResponse {
  status: number;
  headers: Record<string, string>;
  /** The (decompressed) body, read once: either whole with `readAll` or as a stream. */
  body: AsyncIterable<Buffer>;
  /** Drops the body without reading it. */
  discard(): void;
  /** The whole body in one piece, when the transport can give it without iterating (cheaper for whole answers). */
  whole?(limitBytes: number): Promise<Buffer>;
}

/** Largest whole answer the relay reads into memory (images in base64 can be large). */
const maxBodyBytes = 64 * 1024 * 1024;
/** What is read and dropped after a reader stops early (an event stream's `[DONE]`) to keep the connection. */
const maxDrainBytes = 256 * 1024;
/** How long that may take; an upstream that keeps the stream open after `[DONE]` loses its connection. */
const maxDrainMs = 2000;
/** Body bytes held for a slow reader before the upstream socket stops being read. */
const maxQueuedBytes = 64 * 1024;

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const result: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    result[name.toLowerCase()] = Array.isArray(value) ? (value[0] ?? '') : value;
  }
  return result;
}

/** Whether a transport failure is a timeout (undici's header and body timeouts, a channel test's deadline). */
const timedOut = (error: unknown) => String((error as { code?: unknown } | undefined)?.code ?? '').includes('TIMEOUT');

const decompressors: Record<string, () => NodeJS.ReadWriteStream> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/**
 * One upstream call on undici's dispatcher, holding its answer's body until it is read. Cheaper per call
 * than undici's `request()`, which builds an async resource, a Readable stream and an abort listener for
 * every call: a whole answer is collected and handed over in one piece, a stream is read chunk by chunk
 * with back-pressure, and a client that leaves aborts the call through its Cancel.
 */
class Exchange implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private readonly parts: Buffer[] = [];
  private queuedBytes = 0;
  private ended = false;
  private failure: Error | undefined;
  /** Set by `whole()`: the reader waits for the end only, with a size limit. */
  private collectLimit = 0;
  /** Set after an early stop: the rest is read and dropped, so the connection can serve another call. */
  private droppedBytes = -1;
  private drainTimer: NodeJS.Timeout | undefined;
  private waiting: (() => void) | undefined;
  private readonly stopListening: (() => void) | undefined;

  constructor(
    private readonly answered: (response: OpenResponse) => void,
    private readonly refused: (error: Error) => void,
    cancel?: Cancel,
  ) {
    this.stopListening = cancel?.onCancel((reason) => this.abort(reason));
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // Cancelled while it waited for a connection.
    if (this.failure) controller.abort(this.failure);
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    if (statusCode < 200) return;
    const flat = flatHeaders(headers);
    const decompress = decompressors[flat['content-encoding'] ?? ''];
    this.answered({
      status: statusCode,
      headers: flat,
      body: decompress ? decompressed(this, decompress()) : this,
      discard: () => this.abort(new Error('the answer was discarded')),
      whole: decompress ? undefined : (limitBytes) => this.whole(limitBytes),
    });
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.droppedBytes >= 0) {
      this.droppedBytes += chunk.length;
      if (this.droppedBytes > maxDrainBytes) this.abort(new Error('the rest of the answer is too long to drain'));
      return;
    }
    this.parts.push(chunk);
    this.queuedBytes += chunk.length;
    if (this.collectLimit > 0) {
      if (this.queuedBytes > this.collectLimit)
        this.abort(unreadableAnswer(`answer larger than ${this.collectLimit} bytes`));
      return;
    }
    if (this.queuedBytes > maxQueuedBytes) controller.pause();
    this.wake();
  }

  onResponseEnd(): void {
    this.ended = true;
    this.finish();
  }

  onResponseError(_controller: unknown, error: Error): void {
    this.failure = error;
    this.refused(error);
    this.finish();
  }

  private finish(): void {
    this.stopListening?.();
    clearTimeout(this.drainTimer);
    this.wake();
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.();
  }

  private abort(reason: Error): void {
    if (this.ended || this.failure) return;
    if (this.controller) this.controller.abort(reason);
    else this.onResponseError(undefined, reason);
  }

  private next(): Promise<void> {
    return new Promise((resolve) => (this.waiting = resolve));
  }

  private async whole(limitBytes: number): Promise<Buffer> {
    this.collectLimit = limitBytes;
    if (this.queuedBytes > limitBytes) this.abort(unreadableAnswer(`answer larger than ${limitBytes} bytes`));
    this.controller?.resume();
    while (!this.ended && !this.failure) await this.next();
    if (this.failure) throw this.failure;
    return this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.queuedBytes);
  }

  [Symbol.asyncIterator](): AsyncIterator<Buffer> {
    return {
      next: async () => {
        while (this.parts.length === 0 && !this.ended && !this.failure) await this.next();
        const part = this.parts.shift();
        if (part) {
          this.queuedBytes -= part.length;
          if (this.queuedBytes <= maxQueuedBytes / 2 && this.controller?.paused) this.controller.resume();
          return { done: false, value: part };
        }
        if (this.failure) throw this.failure;
        return { done: true, value: undefined };
      },
      return: async () => {
        this.dropRest();
        return { done: true, value: undefined };
      },
    };
  }

  /** A reader stopped early: reads and drops the little that is left instead of closing the connection. */
  private dropRest(): void {
    this.parts.length = 0;
    this.queuedBytes = 0;
    if (this.ended || this.failure) return;
    this.droppedBytes = 0;
    this.drainTimer = setTimeout(
      () => this.abort(new Error('the answer did not end after the reader stopped')),
      maxDrainMs,
    ).unref();
    this.controller?.resume();
  }
}

/** A compressed answer's body, inflated as it is read. */
function decompressed(source: AsyncIterable<Buffer>, inflate: NodeJS.ReadWriteStream): AsyncIterable<Buffer> {
  return pipeline(Readable.from(source, { objectMode: false }), inflate, () => {}) as unknown as AsyncIterable<Buffer>;
}

/**
 * The relay's HTTP client: one undici Pool per upstream origin (global fetch costs several times more per
 * call), RELAY_TIMEOUT applied to headers and to every pause in the body (0 = wait forever).
 */
export class UpstreamClient {
  private readonly pools = new Map<string, Pool>();
  private readonly targets = new Map<string, { origin: string; path: string }>();

  constructor(private readonly timeoutMs: number) {}

  private pool(origin: string): Pool {
    let pool = this.pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, {
        connections: 256,
        pipelining: 1,
        keepAliveTimeout: 30_000,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      this.pools.set(origin, pool);
    }
    return pool;
  }

  /** Origin and path of an upstream URL; a channel calls the same few URLs over and over. */
  private target(url: string): { origin: string; path: string } {
    let target = this.targets.get(url);
    if (!target) {
      const parsed = new URL(url);
      target = { origin: parsed.origin, path: parsed.pathname + parsed.search };
      if (this.targets.size >= 1000) this.targets.clear();
      this.targets.set(url, target);
    }
    return target;
  }

  /** Sends a request; transport failures (refused, reset, timeout, cancel) become retryable UpstreamErrors. */
  async open(request: UpstreamRequest, cancel?: Cancel): Promise<OpenResponse> {
    if (cancel?.cancelled) throw transportError(cancel.reason, timedOut(cancel.reason));
    try {
      const target = this.target(request.url);
      return await new Promise<OpenResponse>((resolve, reject) => {
        const exchange = new Exchange(resolve, reject, cancel);
        this.pool(target.origin).dispatch(
          {
            path: target.path,
            method: request.method,
            headers: { ...request.headers, 'accept-encoding': 'identity' },
            body: request.body,
          },
          exchange,
        );
      });
    } catch (error) {
      throw transportError(error, timedOut(error));
    }
  }

  /** Reads a whole body (bounded); a cut or stalled body becomes a retryable error. */
  async readAll(response: OpenResponse): Promise<UpstreamResponse> {
    let body: Buffer;
    try {
      if (response.whole) {
        body = await response.whole(maxBodyBytes);
      } else {
        const parts: Buffer[] = [];
        let size = 0;
        for await (const chunk of response.body) {
          size += chunk.length;
          if (size > maxBodyBytes) {
            response.discard();
            throw unreadableAnswer(`answer larger than ${maxBodyBytes} bytes`);
          }
          parts.push(chunk);
        }
        body = Buffer.concat(parts);
      }
    } catch (error) {
      if (isUpstreamError(error)) throw error;
      throw transportError(error, timedOut(error));
    }
    return { status: response.status, headers: response.headers, body };
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.pools.values()].map((pool) => pool.close()));
    this.pools.clear();
  }
}
