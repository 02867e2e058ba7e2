import { AppError } from '../lib/errors.js';

/**
 * What a refusal means beyond its status, for the fronts that answer it in a vendor's dialect: a model no
 * channel serves (OpenAI's `model_not_found`), or a balance too low for the call (a billing error, which the
 * Anthropic and Gemini fronts must not answer as a bad key).
 */
export type RefusalKind = 'refusal' | 'model_not_found' | 'low_balance' | 'rate_limited';

/** A refusal of the relay, with its kind. */
export class RelayError extends AppError {
  constructor(
    code: string,
    text: { zh: string; en: string },
    status: number,
    readonly kind: RefusalKind,
  ) {
    super(code, text, status);
  }
}

/** The kind of a thrown refusal, `refusal` for any other error. */
export const refusalKindOf = (error: unknown): RefusalKind => (error instanceof RelayError ? error.kind : 'refusal');

/**
 * The relay's own refusals (rendered as OpenAI error objects with type `one_api_error` and the code in
 * `error.code`, but a model no channel serves as OpenAI's own 404). Chinese texts are one-api's; English ones
 * say what to do.
 */
const relayError = (code: string, status: number, zh: string, en: string, kind: RefusalKind = 'refusal') =>
  new RelayError(code, { zh, en }, status, kind);

export const relayErrors = {
  noToken: () => relayError('no_token', 401, '未提供令牌', 'No API key provided: send Authorization: Bearer sk-…'),
  invalidToken: () => relayError('invalid_token', 401, '无效的令牌', 'Invalid API key: check the key in the console'),
  tokenExhaustedNamed: (name: string, id: number) =>
    relayError(
      'token_exhausted',
      401,
      `令牌 ${name}（#${id}）额度已用尽`,
      `The quota of token ${name} (#${id}) is used up: raise its quota in the console`,
      'low_balance',
    ),
  tokenExpired: () =>
    relayError('token_expired', 401, '该令牌已过期', 'This API key has expired: extend it in the console'),
  tokenUnavailable: () =>
    relayError('token_unavailable', 401, '该令牌状态不可用', 'This API key is disabled: enable it in the console'),
  tokenExhausted: () =>
    relayError(
      'token_exhausted',
      401,
      '该令牌额度已用尽',
      'The quota of this API key is used up: raise it in the console',
      'low_balance',
    ),
  subnetRefused: (subnet: string, ip: string) =>
    relayError(
      'token_subnet_refused',
      403,
      `该令牌只能在指定网段使用：${subnet}，当前 ip：${ip}`,
      `This API key only works from ${subnet}; your address is ${ip}`,
    ),
  userBanned: () => relayError('user_banned', 403, '用户已被封禁', 'The owner of this API key is banned'),
  modelNotAllowed: (model: string) =>
    relayError(
      'model_not_allowed',
      403,
      `该令牌无权使用模型：${model}`,
      `This API key may not use the model ${model}: add it to the key's model list`,
    ),
  channelForbidden: () =>
    relayError(
      'channel_forbidden',
      403,
      '普通用户不支持指定渠道',
      'Only administrators may pick a channel with a key suffix',
    ),
  invalidChannelId: () =>
    relayError('invalid_channel_id', 400, '无效的渠道 Id', 'Invalid channel id in the key suffix'),
  channelDisabled: () => relayError('channel_disabled', 403, '该渠道已被禁用', 'The chosen channel is disabled'),
  noChannel: (group: string, model: string) =>
    // one-api answers 503, which coding agents retry for minutes; nothing will serve it on a retry.
    relayError(
      'model_not_found',
      404,
      `当前分组 ${group} 下对于模型 ${model} 无可用渠道`,
      `No channel serves the model ${model} for the group ${group}: ask an administrator to add one`,
      'model_not_found',
    ),
  invalidRequest: (detail: string) => relayError('invalid_text_request', 400, detail, detail),
  notImplemented: () => relayError('api_not_implemented', 501, 'API not implemented', 'API not implemented'),
  typeNotSupported: (typeName: string) =>
    relayError(
      'channel_type_not_supported',
      501,
      `渠道类型 ${typeName} 暂不支持该接口`,
      `Channel type ${typeName} does not support this endpoint yet`,
    ),
  insufficientUserQuota: () =>
    relayError(
      'insufficient_user_quota',
      403,
      '用户额度不足',
      'user quota is not enough: top up in the console',
      'low_balance',
    ),
  insufficientTokenQuota: () =>
    relayError(
      'pre_consume_token_quota_failed',
      403,
      '令牌额度不足',
      'The quota of this API key is not enough for this request: raise it in the console',
      'low_balance',
    ),
  chargesNotWritten: () =>
    relayError(
      'storage_unavailable',
      503,
      '存储暂时无法写入，计费记录无法保存，暂停接受新的请求，请稍后再试',
      'Storage is not accepting writes (disk full or database unavailable): charges cannot be recorded, so new calls are refused until it does; retry later',
    ),
  rateLimited: (limit: string, owner: 'token' | 'user', retrySeconds: number) =>
    relayError(
      'rate_limit_exceeded',
      429,
      `${owner === 'token' ? '令牌' : '用户'}已达到限制（${limit}），请 ${retrySeconds} 秒后重试`,
      `Rate limit reached for this ${owner === 'token' ? 'API key' : 'user'} (${limit}): retry in ${retrySeconds} s`,
      'rate_limited',
    ),
  upstreamSaturated: () =>
    relayError(
      'upstream_saturated',
      429,
      '当前分组上游负载已饱和，请稍后再试',
      'The upstream is saturated for this group, retry later',
    ),
};
