import { AppError } from '../../lib/errors.js';

export const channelNotFound = () => new AppError('channel_not_found', { zh: '渠道不存在', en: 'channel not found' });

export const channelKeyRequired = () =>
  new AppError('channel_key_required', { zh: '请填写渠道密钥', en: 'the channel key is required' });

export const channelKeyTooLong = (limit: number) =>
  new AppError('channel_key_too_long', {
    zh: `每个渠道密钥最多 ${limit} 个字符`,
    en: `each channel key must be at most ${limit} characters`,
  });

export const tooManyChannelKeys = (limit: number) =>
  new AppError('too_many_channel_keys', {
    zh: `一次最多批量创建 ${limit} 个渠道`,
    en: `at most ${limit} channels can be created at once`,
  });

export const channelModelsRequired = () =>
  new AppError('channel_models_required', { zh: '请至少选择一个模型', en: 'select at least one model' });

export const channelBaseUrlRequired = () =>
  new AppError('channel_base_url_required', {
    zh: '该渠道类型必须填写 Base URL',
    en: 'this channel type needs a base URL',
  });
