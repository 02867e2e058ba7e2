import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isAppError } from '../../lib/errors.js';
import { languageOf } from '../../lib/language.js';
import { refusalKindOf } from '../../relay/relay-errors.js';
import { isUpstreamError } from '../../relay/upstream-error.js';
import { RequestBodyError } from './request-body.js';

/** OpenAI's error object. */
export interface OpenAIErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** A failure rendered in a front's error shape, with the request id in the message, never a stack. */
export type ErrorAnswer = (
  error: unknown,
  requestId: string,
  acceptLanguage: string | undefined,
  logUnexpected: (error: unknown) => void,
) => { status: number; body: unknown };

/** The relay's language: one-api's speaks Chinese; SDKs send no language or `*`, so only an explicit choice switches. */
export const relayLanguage = (acceptLanguage: string | undefined) =>
  !acceptLanguage || acceptLanguage.trim() === '*' ? 'zh' : languageOf(acceptLanguage);

/** OpenAI's own types for a model that is not there and a rate limit, which its SDKs and agents read. */
const openAIErrorType = (error: unknown) => {
  const kind = refusalKindOf(error);
  return kind === 'model_not_found'
    ? 'invalid_request_error'
    : kind === 'rate_limited'
      ? 'rate_limit_error'
      : 'one_api_error';
};

/** Any failure inside /v1 in OpenAI's shape, with the request id in the message, never a stack. */
export function openAIErrorAnswer(
  error: unknown,
  requestId: string,
  acceptLanguage: string | undefined,
  logUnexpected: (error: unknown) => void,
): { status: number; body: OpenAIErrorBody } {
  const withRequestId = (message: string) => `${message} (request id: ${requestId})`;
  const language = relayLanguage(acceptLanguage);
  if (isAppError(error)) {
    return {
      status: error.status === 200 ? 400 : error.status,
      body: {
        error: {
          message: withRequestId(error.text[language]),
          type: openAIErrorType(error),
          param: '',
          code: error.code,
        },
      },
    };
  }
  if (isUpstreamError(error)) {
    const { status, message, type, param, code } = error.body;
    return { status, body: { error: { message: withRequestId(message), type, param, code } } };
  }
  const { statusCode } = error as Partial<FastifyError>;
  if (statusCode && statusCode >= 400 && statusCode < 500) {
    return {
      status: statusCode,
      body: {
        error: {
          message: withRequestId((error as Error).message),
          type: 'invalid_request_error',
          param: '',
          code: error instanceof RequestBodyError ? error.code : 'invalid_request',
        },
      },
    };
  }
  logUnexpected(error);
  return {
    status: 500,
    body: {
      error: {
        message: withRequestId('internal error of the gateway'),
        type: 'one_api_error',
        param: '',
        code: 'internal_error',
      },
    },
  };
}

/** Fastify's error handler for the /v1 scope: failures before the relay entry (the dashboard's rate limit). */
export function openAIErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (reply.sent || reply.raw.headersSent) return;
  const { status, body } = openAIErrorAnswer(error, request.id, request.headers['accept-language'], (failure) =>
    request.log.error({ err: failure }, 'relay failed'),
  );
  return reply.status(status).send(body);
}
