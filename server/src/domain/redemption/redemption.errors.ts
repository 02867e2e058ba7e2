import { AppError } from '../../lib/errors.js';
import { maxRedemptionBatch, maxRedemptionNameLength } from './redemption.constants.js';

export const redemptionNotFound = () =>
  new AppError('redemption_not_found', { zh: '兑换码不存在', en: 'redemption code not found' });

export const redemptionNameLength = () =>
  new AppError('redemption_name_length', {
    zh: `兑换码名称长度必须在1-${maxRedemptionNameLength}之间`,
    en: `the code name must be 1 to ${maxRedemptionNameLength} characters long`,
  });

export const redemptionCountTooSmall = () =>
  new AppError('redemption_count_invalid', {
    zh: '兑换码个数必须大于0',
    en: 'the number of codes must be greater than 0',
  });

export const redemptionCountTooLarge = () =>
  new AppError('redemption_count_invalid', {
    zh: `一次兑换码批量生成的个数不能大于 ${maxRedemptionBatch}`,
    en: `at most ${maxRedemptionBatch} codes can be generated at once`,
  });

export const redemptionQuotaInvalid = () =>
  new AppError('redemption_quota_invalid', {
    zh: '兑换码额度必须大于 0',
    en: 'the quota of a code must be greater than 0',
  });

export const redemptionUsedCannotToggle = () =>
  new AppError('redemption_used', {
    zh: '该兑换码已被使用，无法修改状态',
    en: 'this code has already been redeemed; its status cannot change',
  });

export const redemptionKeyMissing = () =>
  new AppError('redemption_key_missing', { zh: '未提供兑换码', en: 'no code given' });

/** one-api's redeem failures read `兑换失败，<reason>`. */
export const redeemFailed = (zh: string, en: string) =>
  new AppError('redeem_failed', { zh: `兑换失败，${zh}`, en: `redeem failed: ${en}` });

export const redemptionKeyInvalid = () => redeemFailed('无效的兑换码', 'invalid code');
export const redemptionAlreadyUsed = () => redeemFailed('该兑换码已被使用', 'this code has already been used');
