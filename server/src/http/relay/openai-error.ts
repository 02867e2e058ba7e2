import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isAppError } from '../../lib/errors.js';
import { languageOf } from '../../lib/language.js';
import { isUpstreamError } from '../../relay/upstream-error.js';

/** OpenAI's error object. */
export interface OpenAIErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

const clientErrors: Record<string, { status: number; message: string; code: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: 'the request body is not valid JSON', code: 'invalid_json' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: 'the request body is empty', code: 'invalid_json' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: 'the request body is too large', code: 'request_too_large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    message: 'unsupported Content-Type',
    code: 'unsupported_content_type',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    message: 'Content-Length does not match the body',
    code: 'invalid_request',
  },
};

/** Any failure inside /v1 in OpenAI's shape, with the request id in the message, never a stack. */
export function openAIErrorAnswer(
  error: unknown,
  requestId: string,
  acceptLanguage: string | undefined,
  logUnexpected: (error: unknown) => void,
): { status: number; body: OpenAIErrorBody } {
  const withRequestId = (message: string) => `${message} (request id: ${requestId})`;
  // one-api's relay speaks Chinese; SDKs send no language or `*`, so only an explicit choice switches.
  const language = !acceptLanguage || acceptLanguage.trim() === '*' ? 'zh' : languageOf(acceptLanguage);
  if (isAppError(error)) {
    return {
      status: error.status === 200 ? 400 : error.status,
      body: {
        error: { message: withRequestId(error.text[language]), type: 'one_api_error', param: '', code: error.code },
      },
    };
  }
  if (isUpstreamError(error)) {
    const { status, message, type, param, code } = error.body;
    return { status, body: { error: { message: withRequestId(message), type, param, code } } };
  }
  const { code = '', statusCode } = error as Partial<FastifyError>;
  const known = clientErrors[code];
  if (known || (statusCode && statusCode >= 400 && statusCode < 500)) {
    return {
      status: known?.status ?? statusCode ?? 400,
      body: {
        error: {
          message: withRequestId(known?.message ?? (error as Error).message),
          type: 'invalid_request_error',
          param: '',
          code: known?.code ?? 'invalid_request',
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

/** Fastify's error handler for the /v1 scope. */
export function openAIErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (reply.sent || reply.raw.headersSent) return;
  const { status, body } = openAIErrorAnswer(error, request.id, request.headers['accept-language'], (failure) =>
    request.log.error({ err: failure }, 'relay failed'),
  );
  return reply.status(status).send(body);
}
