import type { UpstreamErrorBody } from './adaptor.js';

/** Status codes after which another channel may well succeed (STYLE §3.10). */
export const isRetryableStatus = (status: number) => status === 408 || status === 429 || status >= 500;

/**
 * A failure of the upstream (or of reaching it). Keeps the status, the OpenAI-shaped error the client will
 * see, and whether another channel may be tried. Never carries keys: messages come from upstream bodies or
 * from our own text.
 */
export class UpstreamError extends Error {
  readonly retryable: boolean;

  constructor(
    readonly body: UpstreamErrorBody,
    options: { retryable?: boolean; cause?: unknown } = {},
  ) {
    super(body.message, { cause: options.cause });
    this.retryable = options.retryable ?? isRetryableStatus(body.status);
  }

  get status(): number {
    return this.body.status;
  }
}

export const isUpstreamError = (error: unknown): error is UpstreamError => error instanceof UpstreamError;

/** A failure before any answer (connection refused, reset, timeout): retryable, status 500 like one-api's do_request_failed. */
export function transportError(error: unknown, timedOut: boolean): UpstreamError {
  const reason = error instanceof Error ? error.message : String(error);
  return new UpstreamError(
    {
      status: timedOut ? 504 : 500,
      message: timedOut ? `upstream timed out: ${reason}` : `do request failed: ${reason}`,
      type: 'one_api_error',
      param: null,
      code: timedOut ? 'upstream_timeout' : 'do_request_failed',
    },
    { retryable: true, cause: error },
  );
}

/** An upstream answer we cannot read (HTML page, cut JSON, wrong content type): treated like a 502. */
export function unreadableAnswer(detail: string): UpstreamError {
  return new UpstreamError(
    {
      status: 502,
      message: `upstream returned an unreadable answer: ${detail}`,
      type: 'upstream_error',
      param: null,
      code: 'bad_response_body',
    },
    { retryable: true },
  );
}
