import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isAppError } from '../../lib/errors.js';
import { languageOf } from '../../lib/language.js';
import { isUpstreamError } from '../../relay/upstream-error.js';

/** OpenAI's error object. */
export interface OpenAIErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

const withRequestId = (message: string, request: FastifyRequest) => `${message} (request id: ${request.id})`;

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

/** Renders any failure inside /v1 in OpenAI's shape, with the request id in the message, never a stack. */
export function openAIErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (reply.sent || reply.raw.headersSent) return;
  // one-api's relay speaks Chinese; SDKs send no language or `*`, so only an explicit choice switches.
  const acceptLanguage = request.headers['accept-language'];
  const language = !acceptLanguage || acceptLanguage.trim() === '*' ? 'zh' : languageOf(acceptLanguage);
  if (isAppError(error)) {
    return reply.status(error.status === 200 ? 400 : error.status).send({
      error: {
        message: withRequestId(error.text[language], request),
        type: 'one_api_error',
        param: '',
        code: error.code,
      },
    } satisfies OpenAIErrorBody);
  }
  if (isUpstreamError(error)) {
    const { status, message, type, param, code } = error.body;
    return reply
      .status(status)
      .send({ error: { message: withRequestId(message, request), type, param, code } } satisfies OpenAIErrorBody);
  }
  const known = clientErrors[error.code];
  if (known || (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)) {
    const status = known?.status ?? error.statusCode ?? 400;
    return reply.status(status).send({
      error: {
        message: withRequestId(known?.message ?? error.message, request),
        type: 'invalid_request_error',
        param: '',
        code: known?.code ?? 'invalid_request',
      },
    } satisfies OpenAIErrorBody);
  }
  request.log.error({ err: error }, 'relay failed');
  return reply.status(500).send({
    error: {
      message: withRequestId('internal error of the gateway', request),
      type: 'one_api_error',
      param: '',
      code: 'internal_error',
    },
  } satisfies OpenAIErrorBody);
}
