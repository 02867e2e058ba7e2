import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Readable } from 'node:stream';
import { Pool } from 'undici';
import type { UpstreamRequest, UpstreamResponse } from '../adaptor.js';
import { isUpstreamError, transportError, unreadableAnswer } from '../upstream-error.js';

/** An upstream answer whose body has not been read yet. */
export interface OpenResponse {
  status: number;
  headers: Record<string, string>;
  /** The (decompressed) body, read once: either whole with `readAll` or as a stream. */
  body: AsyncIterable<Buffer>;
  /** Drops the body without reading it. */
  discard(): void;
  /** The same body as a Node stream, when it is one (read whole through events, cheaper than iterating). */
  stream?: Readable;
}

/** Largest whole answer the relay reads into memory (images in base64 can be large). */
const maxBodyBytes = 64 * 1024 * 1024;
/** What is read and dropped after a reader stops early (an event stream's `[DONE]`) to keep the connection. */
const maxDrainBytes = 256 * 1024;
/** How long that may take; an upstream that keeps the stream open after `[DONE]` loses its connection. */
const maxDrainMs = 2000;

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    result[name.toLowerCase()] = Array.isArray(value) ? (value[0] ?? '') : value;
  }
  return result;
}

function decoded(body: Readable, encoding: string | undefined): Readable {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return body.pipe(createGunzip());
    case 'deflate':
      return body.pipe(createInflate());
    case 'br':
      return body.pipe(createBrotliDecompress());
    default:
      return body;
  }
}

/**
 * The body as an iterable whose early exit (a reader that stops at `[DONE]`) reads the little that is left
 * in the background instead of destroying the stream: a destroyed body closes the upstream connection, and
 * the next call would pay for a new one.
 */
function reusableBody(body: Readable): AsyncIterable<Buffer> {
  return {
    [Symbol.asyncIterator]() {
      const iterator = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
      return {
        next: () => iterator.next(),
        return: async () => {
          const deadline = setTimeout(() => body.destroy(), maxDrainMs).unref();
          void (async () => {
            let dropped = 0;
            for (let part = await iterator.next(); !part.done; part = await iterator.next()) {
              dropped += part.value.length;
              if (dropped > maxDrainBytes) return body.destroy();
            }
          })()
            .catch(() => body.destroy())
            .finally(() => clearTimeout(deadline));
          return { done: true, value: undefined };
        },
      };
    },
  };
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

  /** Sends a request; transport failures (refused, reset, timeout, abort) become retryable UpstreamErrors. */
  async open(request: UpstreamRequest, signal?: AbortSignal): Promise<OpenResponse> {
    let target: { origin: string; path: string };
    try {
      target = this.target(request.url);
    } catch (error) {
      throw transportError(error, false);
    }
    try {
      const response = await this.pool(target.origin).request({
        path: target.path,
        method: request.method,
        headers: { ...request.headers, 'accept-encoding': 'identity' },
        body: request.body,
        signal,
      });
      const headers = flatHeaders(response.headers);
      const body = decoded(response.body, headers['content-encoding']);
      body.on('error', () => {});
      return {
        status: response.statusCode,
        headers,
        body: reusableBody(body),
        discard: () => response.body.destroy(),
        stream: body,
      };
    } catch (error) {
      const name = String((error as { code?: unknown }).code ?? '');
      throw transportError(error, name.includes('TIMEOUT'));
    }
  }

  /** Reads a whole body (bounded); a cut or stalled body becomes a retryable error. */
  async readAll(response: OpenResponse): Promise<UpstreamResponse> {
    const parts: Buffer[] = [];
    let size = 0;
    const add = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        response.discard();
        throw unreadableAnswer(`answer larger than ${maxBodyBytes} bytes`);
      }
      parts.push(chunk);
    };
    try {
      const stream = response.stream;
      if (stream) {
        await new Promise<void>((resolve, reject) => {
          stream.on('data', (chunk: Buffer) => {
            try {
              add(chunk);
            } catch (error) {
              reject(error);
            }
          });
          stream.once('end', resolve);
          stream.once('error', reject);
          stream.once('close', () => reject(new Error('the answer was cut off')));
        });
      } else {
        for await (const chunk of response.body) add(chunk);
      }
    } catch (error) {
      if (isUpstreamError(error)) throw error;
      const code = (error as { code?: string }).code ?? '';
      throw transportError(error, code.includes('TIMEOUT'));
    }
    return { status: response.status, headers: response.headers, body: Buffer.concat(parts) };
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.pools.values()].map((pool) => pool.close()));
    this.pools.clear();
  }
}
