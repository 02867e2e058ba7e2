import { CredentialCache, type SendUpstream } from '../openai-kit/credential-cache.js';
import { tryParseObject } from '../openai-kit/json.js';
import { vendorError } from '../openai-kit/upstream-errors.js';
import { baiduTokenRequest, parseBaiduKey } from './request.js';
import type { BaiduTokenResponse } from './types.js';

/** Tokens live 30 days; one-api refreshed them when less than an hour was left. */
const tokens = new CredentialCache(60 * 60 * 1000);

/**
 * The access token for a channel key `APIKey|SecretKey`, from the cache or from `<base>/oauth/2.0/token`.
 * A refused exchange becomes a 401 so the channel can be disabled like one with a wrong OpenAI key.
 */
export async function baiduAccessToken(baseUrl: string, key: string, send: SendUpstream): Promise<string> {
  const credentials = parseBaiduKey(key);
  return tokens.get(`${baseUrl}\n${key}`, async () => {
    const response = await send(baiduTokenRequest(baseUrl, credentials));
    const answer = (tryParseObject(response.body) ?? {}) as BaiduTokenResponse;
    if (!answer.access_token) {
      const message = answer.error_description || answer.error || `token exchange answered ${response.status}`;
      throw vendorError(401, `baidu access token: ${message}`, 'baidu_error', answer.error ?? 'token_exchange_failed');
    }
    return { value: answer.access_token, expiresAtMs: Date.now() + (answer.expires_in ?? 3600) * 1000 };
  });
}

/** Drops a cached token after Baidu said it is invalid or expired (codes 110/111). */
export function forgetBaiduAccessToken(baseUrl: string, key: string): void {
  tokens.forget(`${baseUrl}\n${key}`);
}
