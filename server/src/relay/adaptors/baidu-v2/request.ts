import type { RelayCall } from '../../adaptor.js';
import { withStreamUsage } from '../openai-kit/openai-compatible.js';
import { channelKeyError } from '../openai-kit/upstream-errors.js';

/**
 * Qianfan v2 takes an IAM API key (`bce-v3/ALTAK-…/…`). A v1 `APIKey|SecretKey` pair here is the usual
 * mistake, so it is named instead of being sent and refused upstream.
 */
export function checkBaiduV2Key(call: RelayCall): Record<string, string> {
  if (call.channel.key.includes('|') || call.channel.key.trim() === '') {
    throw channelKeyError('Baidu v2', 'a Qianfan API key (bce-v3/…); APIKey|SecretKey pairs belong to type 15 (Baidu)');
  }
  return {};
}

/** v2 model ids are lower case (`ernie-4.0-8k`), while one-api's list is upper case. */
export function baiduV2Body(body: Record<string, unknown>, call: RelayCall): Record<string, unknown> {
  return withStreamUsage({ ...body, model: call.model.toLowerCase() }, call);
}
