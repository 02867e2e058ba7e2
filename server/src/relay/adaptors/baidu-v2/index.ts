import { openAICompatible } from '../openai-kit/openai-compatible.js';
import { baiduV2Models } from './models.js';
import { baiduV2Body, checkBaiduV2Key } from './request.js';

/** Baidu Qianfan v2: OpenAI's protocol at `/v2/chat/completions` with an IAM Bearer key. */
export const baiduV2 = openAICompatible({
  id: 'baidu-v2',
  models: baiduV2Models,
  modes: ['chat'],
  paths: { chat: '/v2/chat/completions' },
  rewriteBody: baiduV2Body,
  extraHeaders: checkBaiduV2Key,
});
