import type { Adaptor, RelayCall, UpstreamResponse } from '../../adaptor.js';
import { isUpstreamError } from '../../upstream-error.js';
import { baiduAccessToken, forgetBaiduAccessToken } from './access-token.js';
import { baiduModels } from './models.js';
import { buildBaiduRequest } from './request.js';
import { readBaiduError, readBaiduResponse } from './response.js';
import { readBaiduStream } from './stream.js';

/** Codes saying the cached access token is no good any more (110 invalid, 111 expired). */
const staleTokenCodes = new Set(['110', '111']);

function forgetStaleToken(call: RelayCall, code: string | null): void {
  if (code && staleTokenCodes.has(code)) forgetBaiduAccessToken(call.channel.baseUrl, call.channel.key);
}

/** Baidu Qianfan v1 (ERNIE): `APIKey|SecretKey` exchanged for a cached access token, then wenxinworkshop calls. */
export const baidu = {
  id: 'baidu',
  modes: ['chat', 'embeddings'],
  models: baiduModels,
  buildRequest: async (call, tools) =>
    buildBaiduRequest(call, await baiduAccessToken(call.channel.baseUrl, call.channel.key, tools.send)),
  readResponse(response: UpstreamResponse, call: RelayCall) {
    try {
      return readBaiduResponse(response, call);
    } catch (error) {
      if (isUpstreamError(error)) forgetStaleToken(call, error.body.code);
      throw error;
    }
  },
  readStream: readBaiduStream,
  readError(response: UpstreamResponse, call: RelayCall) {
    const error = readBaiduError(response);
    forgetStaleToken(call, error.code);
    return error;
  },
} satisfies Adaptor;
