import { createHash } from 'node:crypto';
import type { JWT } from 'google-auth-library';
import { UpstreamError } from '../../upstream-error.js';
import { isObject, stringOf } from '../openai-kit/json.js';
import { errorBody } from '../openai-kit/upstream-errors.js';
import type { ServiceAccountKey } from './types.js';

const googleTokenUrl = 'https://oauth2.googleapis.com/token';
const scope = 'https://www.googleapis.com/auth/cloud-platform';
const maxClients = 200;

/** One JWT client per service account and token endpoint; the library caches and refreshes its token. */
const clients = new Map<string, JWT>();

/**
 * Where the token exchange goes: with a channel base URL, that host replaces Google's (interface.md: every
 * call of the channel, token exchanges included); else the key file's own `token_uri`.
 */
export function tokenEndpoint(serviceAccount: ServiceAccountKey, baseUrl: string | undefined): string {
  const declared = serviceAccount.token_uri || googleTokenUrl;
  if (!baseUrl) return declared;
  return baseUrl + new URL(declared).pathname;
}

async function clientFor(serviceAccount: ServiceAccountKey, endpoint: string): Promise<JWT> {
  const cacheKey = createHash('sha256')
    .update(`${serviceAccount.client_email}\n${serviceAccount.private_key}\n${endpoint}`)
    .digest('hex');
  const cached = clients.get(cacheKey);
  if (cached) return cached;
  // The library weighs about 14 MiB: it is loaded on the first Vertex AI call, not at start.
  const { JWT } = await import('google-auth-library');
  const client = new JWT({
    email: serviceAccount.client_email,
    key: serviceAccount.private_key,
    keyId: serviceAccount.private_key_id,
    scopes: [scope],
  });
  // The library posts to Google's fixed token URL; redirect that one call to the channel's endpoint.
  client.transporter.interceptors.request.add({
    resolved: async (options) => {
      if (String(options.url) === googleTokenUrl) options.url = new URL(endpoint);
      return options;
    },
  });
  if (clients.size >= maxClients) clients.delete(clients.keys().next().value as string);
  clients.set(cacheKey, client);
  return client;
}

/** An OAuth access token (cloud-platform scope) minted from a service-account key, cached until near expiry. */
export async function vertexAccessToken(
  serviceAccount: ServiceAccountKey,
  baseUrl: string | undefined,
): Promise<string> {
  const client = await clientFor(serviceAccount, tokenEndpoint(serviceAccount, baseUrl));
  let token: string | null | undefined;
  try {
    ({ token } = await client.getAccessToken());
  } catch (error) {
    throw tokenError(error);
  }
  if (!token)
    throw new UpstreamError(
      errorBody(502, 'Vertex AI token endpoint returned no access token', 'upstream_error', 'token_exchange_failed'),
    );
  return token;
}

/** A failed token exchange as an upstream error: the OAuth error text kept, a 4xx status meaning a bad key. */
function tokenError(error: unknown): UpstreamError {
  const response = isObject(error) && isObject(error.response) ? error.response : undefined;
  const status = typeof response?.status === 'number' ? response.status : 502;
  const data = response?.data;
  const detail = isObject(data) ? stringOf(data.error_description) || stringOf(data.error) : '';
  const message = `Vertex AI token exchange failed: ${detail || (error instanceof Error ? error.message : String(error))}`;
  // A rejected key is the channel's problem (401 so channel health sees it); an unreachable endpoint may pass.
  return new UpstreamError(
    errorBody(status >= 400 && status < 500 ? 401 : 502, message, 'authentication_error', 'token_exchange_failed'),
    { cause: error },
  );
}
