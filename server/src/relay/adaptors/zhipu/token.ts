import { createHmac } from 'node:crypto';
import { channelKeyError } from '../openai-kit/upstream-errors.js';

const lifetimeMs = 24 * 60 * 60 * 1000;
const renewBeforeMs = 60 * 60 * 1000;
const cache = new Map<string, { token: string; expiresAtMs: number }>();

const base64Url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

/** `<id>.<secret>`: exactly one dot, both halves present. */
export function parseZhipuKey(key: string): { id: string; secret: string } {
  const [id, secret, ...rest] = key.trim().split('.');
  if (!id || !secret || rest.length > 0) throw channelKeyError('Zhipu', '<id>.<secret>');
  return { id, secret };
}

/**
 * The HS256 JWT Zhipu wants instead of the raw key: header with `sign_type: SIGN`, claims `api_key`, `exp`
 * and `timestamp` in milliseconds. Cached per key for a day, renewed an hour before it expires.
 */
export function zhipuToken(key: string, nowMs = Date.now()): string {
  const cached = cache.get(key);
  if (cached && cached.expiresAtMs - renewBeforeMs > nowMs) return cached.token;
  const { id, secret } = parseZhipuKey(key);
  const header = base64Url(JSON.stringify({ alg: 'HS256', sign_type: 'SIGN', typ: 'JWT' }));
  const claims = base64Url(JSON.stringify({ api_key: id, exp: nowMs + lifetimeMs, timestamp: nowMs }));
  const signature = base64Url(createHmac('sha256', secret).update(`${header}.${claims}`).digest());
  const token = `${header}.${claims}.${signature}`;
  cache.set(key, { token, expiresAtMs: nowMs + lifetimeMs });
  return token;
}
