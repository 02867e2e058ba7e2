import type { UpstreamErrorBody } from '../../adaptor.js';
import { UpstreamError, unreadableAnswer } from '../../upstream-error.js';
import { isObject } from './openai-chat.js';

/**
 * An upstream error in OpenAI's shape, keeping the vendor's message and code. `status` is the HTTP status
 * the client sees: vendors that answer 200 with an error get one chosen from their error code, so that
 * retries (429, 5xx) and auto-disabling (401) work as for OpenAI.
 */
export function vendorError(
  status: number,
  message: string,
  type: string,
  code: string | number | null,
): UpstreamError {
  return new UpstreamError(vendorErrorBody(status, message, type, code));
}

/** The plain body of `vendorError`, for `readError`. */
export function vendorErrorBody(
  status: number,
  message: string,
  type: string,
  code: string | number | null,
): UpstreamErrorBody {
  return {
    status,
    message: message || `upstream error ${code ?? status}`,
    type,
    param: null,
    code: code === null ? null : String(code),
  };
}

/**
 * A channel key that does not fit its type (e.g. Baidu's `APIKey|SecretKey` without the bar). The channel is
 * misconfigured, not the request, so another channel may be tried; the key itself is never echoed.
 */
export function channelKeyError(typeName: string, expected: string): UpstreamError {
  return new UpstreamError(
    {
      status: 500,
      message: `the channel key does not fit type ${typeName}: expected ${expected}`,
      type: 'one_api_error',
      param: null,
      code: 'invalid_channel_key',
    },
    { retryable: true },
  );
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

/** Parses a JSON object answer or throws the relay's unreadable-answer error. */
export function parseJsonObject(body: Buffer | string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
  } catch {
    throw unreadableAnswer('not JSON');
  }
  if (!isObject(parsed)) throw unreadableAnswer('not a JSON object');
  return parsed;
}

/** Parses JSON without throwing (undefined when it is not an object). */
export function tryParseObject(body: Buffer | string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
