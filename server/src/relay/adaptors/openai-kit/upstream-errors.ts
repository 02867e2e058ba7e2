import type { UpstreamErrorBody } from '../../adaptor.js';
import { UpstreamError } from '../../upstream-error.js';

/** An OpenAI-shaped error body. */
export function errorBody(
  status: number,
  message: string,
  type: string,
  code: string | null = null,
  param: string | null = null,
): UpstreamErrorBody {
  return { status, message, type, param, code };
}

/**
 * An upstream error in OpenAI's shape, keeping the vendor's message and code. `status` is the HTTP status
 * the client sees: vendors that answer 200 with an error get one chosen from their error code, so that
 * retries (429, 5xx) and auto-disabling (401) work as for OpenAI.
 */
export function vendorErrorBody(
  status: number,
  message: string,
  type: string,
  code: string | number | null,
): UpstreamErrorBody {
  return errorBody(status, message || `upstream error ${code ?? status}`, type, code === null ? null : String(code));
}

/** `vendorErrorBody` as a thrown error, for answers that arrive with a 2xx status. */
export function vendorError(
  status: number,
  message: string,
  type: string,
  code: string | number | null,
): UpstreamError {
  return new UpstreamError(vendorErrorBody(status, message, type, code));
}

/**
 * A channel key that does not fit its type (e.g. Baidu's `APIKey|SecretKey` without the bar), `found` saying
 * what is wrong when the expected form alone does not. The channel is misconfigured, not the request, so
 * another channel may be tried; the key itself is never echoed.
 */
export function channelKeyError(typeName: string, expected: string, found?: string): UpstreamError {
  const message = `the channel key does not fit type ${typeName}: expected ${expected}${found ? `; ${found}` : ''}`;
  return new UpstreamError(errorBody(500, message, 'one_api_error', 'invalid_channel_key'), { retryable: true });
}

/** The trimmed channel key, or channelKeyError when it is empty. */
export function requiredKey(key: string, typeName: string, expected: string): string {
  const trimmed = key.trim();
  if (trimmed === '') throw channelKeyError(typeName, expected, 'the key is empty');
  return trimmed;
}

/** Splits a multi-part channel key on `|` into exactly `count` non-empty parts, or throws channelKeyError. */
export function splitChannelKey(key: string, count: number, typeName: string, expected: string): string[] {
  const parts = key
    .trim()
    .split('|')
    .map((part) => part.trim());
  if (parts.length !== count || parts.some((part) => part === '')) throw channelKeyError(typeName, expected);
  return parts;
}

/** The client asked for something this upstream cannot do with the given request. */
export function unsupportedRequest(message: string): UpstreamError {
  return new UpstreamError(errorBody(400, message, 'invalid_request_error', 'unsupported_request'), {
    retryable: false,
  });
}
