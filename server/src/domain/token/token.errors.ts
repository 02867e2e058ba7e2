import { AppError } from '../../lib/errors.js';
import { maxTokensPerUser } from './token.constants.js';

/** one-api wraps token validation failures as `参数错误：…`. */
const parameterError = (code: string, zh: string, en: string) =>
  new AppError(code, { zh: `参数错误：${zh}`, en: `invalid parameter: ${en}` });

export const tokenNameTooLong = () =>
  parameterError('token_name_too_long', '令牌名称过长', 'the token name is too long');

export const invalidSubnet = (entry: string) =>
  parameterError('token_subnet_invalid', `无效的网段：${entry}`, `invalid subnet: ${entry}`);

export const negativeRemainQuota = () =>
  parameterError('token_quota_negative', '剩余额度不能为负数', 'the remaining quota must not be negative');

export const expiryInPast = () =>
  parameterError(
    'token_expiry_invalid',
    '过期时间必须为 -1（永不过期）或将来的时间',
    'the expiry must be -1 (never) or a time in the future',
  );

export const tokenNotFound = () => new AppError('token_not_found', { zh: '令牌不存在', en: 'token not found' });

export const tooManyTokens = () =>
  new AppError('token_limit_reached', {
    zh: `令牌数量已达上限（${maxTokensPerUser} 个），请先删除不再使用的令牌`,
    en: `you already hold the maximum of ${maxTokensPerUser} tokens: delete unused ones first`,
  });

export const tokenExpiredCannotEnable = () =>
  new AppError('token_expired', {
    zh: '令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期',
    en: 'The token has expired and cannot be enabled: change its expiry or make it never expire first',
  });

export const tokenExhaustedCannotEnable = () =>
  new AppError('token_exhausted', {
    zh: '令牌可用额度已用尽，无法启用，请先修改令牌剩余额度，或者设置为无限额度',
    en: 'The token has no quota left and cannot be enabled: raise its quota or make it unlimited first',
  });
