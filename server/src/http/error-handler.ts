import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isAppError } from '../lib/errors.js';
import { languageOf } from '../lib/language.js';

const clientErrorMessages: Record<string, { zh: string; en: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { zh: '请求体不是合法的 JSON', en: 'request body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { zh: '请求体为空', en: 'request body is empty' },
  FST_ERR_CTP_BODY_TOO_LARGE: { zh: '请求体过大', en: 'request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { zh: '不支持的 Content-Type', en: 'unsupported Content-Type' },
};

/** Renders every failure on /api (and the console) as `{ success: false, message }`; never leaks internals. */
export function apiErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const language = languageOf(request.headers['accept-language']);
  if (isAppError(error))
    return reply
      .status(error.status)
      .send({ success: false, message: error.text[language], ...(error.data ? { data: error.data } : {}) });
  if (error.statusCode === 429) return reply.status(429).send(error);
  const known = clientErrorMessages[error.code];
  if (known || (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)) {
    const message = known ? known[language] : error.message;
    return reply.status(error.statusCode ?? 400).send({ success: false, message });
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.status(500).send({
    success: false,
    message:
      language === 'zh' ? '服务器内部错误，请联系管理员' : 'Internal server error, please contact the administrator',
  });
}
