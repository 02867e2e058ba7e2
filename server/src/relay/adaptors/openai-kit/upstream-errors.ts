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
 * The channel's key does not have the form its type needs (`ak|sk|region`, service-account JSON …). Not the
 * client's fault, and another channel may be configured well, so it is retryable.
 */
export function invalidChannelKey(message: string): UpstreamError {
  return new UpstreamError(errorBody(500, message, 'one_api_error', 'invalid_channel_key'), { retryable: true });
}

/** The client asked for something this upstream cannot do with the given request. */
export function unsupportedRequest(message: string): UpstreamError {
  return new UpstreamError(errorBody(400, message, 'invalid_request_error', 'unsupported_request'), {
    retryable: false,
  });
}

/** Parses a JSON body, undefined when it is not JSON. */
export function parseJsonBody(body: Buffer | string): unknown {
  try {
    return JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
  } catch {
    return undefined;
  }
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const stringOf = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The first 300 characters of a body, for messages about answers we cannot read. */
export function bodyExcerpt(body: Buffer): string {
  const text = body.toString('utf8');
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
