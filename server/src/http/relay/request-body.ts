import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

/** A body the relay refuses before looking at it (too large, unreadable gzip): a 4xx in the front's shape. */
export class RequestBodyError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const tooLarge = () => new RequestBodyError(413, 'request_too_large', 'the request body is too large');

/**
 * Reads a relay request's body whole, as Node hands it over (chunked or with a Content-Length), inflating
 * a gzip body; at most `limitBytes` (of the inflated body). A client that leaves midway rejects it.
 */
export function readRequestBody(request: IncomingMessage, limitBytes: number): Promise<Buffer> {
  const gzip = request.headers['content-encoding'] === 'gzip';
  if (!gzip && Number(request.headers['content-length']) > limitBytes) return Promise.reject(tooLarge());
  const gunzip = gzip ? request.pipe(createGunzip()) : undefined;
  const source: Readable = gunzip ?? request;
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let received = 0;
    let ended = false;
    const stop = (error: Error) => {
      ended = true;
      source.off('data', onData);
      if (gunzip) {
        request.unpipe(gunzip);
        gunzip.destroy();
      }
      reject(error);
    };
    const onData = (part: Buffer) => {
      received += part.length;
      if (received > limitBytes) return stop(tooLarge());
      parts.push(part);
    };
    source.on('data', onData);
    source.once('end', () => {
      if (ended) return;
      ended = true;
      resolve(parts.length === 1 ? parts[0]! : Buffer.concat(parts, received));
    });
    const left = () => {
      if (!ended && !request.complete) stop(new Error('the client left before its request body was read'));
    };
    request.once('error', left);
    request.once('close', left);
    gunzip?.once('error', (error: Error) => {
      if (!ended) stop(new RequestBodyError(400, 'invalid_request', `the gzip body cannot be read: ${error.message}`));
    });
  });
}
