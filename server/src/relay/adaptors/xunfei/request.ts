import { createHmac } from 'node:crypto';
import type { RelayCall, UpstreamRequest } from '../../adaptor.js';
import { messageText, offeredFunctions, readChatRequest } from '../openai-kit/chat-request.js';
import type { ChatRequest } from '../openai-kit/chat-types.js';
import { splitChannelKey } from '../openai-kit/upstream-errors.js';
import { sparkDomain, sparkPath, sparkSupportsFunctions, sparkVersion } from './models.js';
import type { SparkMessage, SparkRequest } from './types.js';

export interface SparkCredentials {
  appId: string;
  apiSecret: string;
  apiKey: string;
}

/** `APPID|APISecret|APIKey`, in this order (the console's order). */
export function parseXunfeiKey(key: string): SparkCredentials {
  const [appId, apiSecret, apiKey] = splitChannelKey(key, 3, 'iFlytek Spark', 'APPID|APISecret|APIKey');
  return { appId: appId!, apiSecret: apiSecret!, apiKey: apiKey! };
}

/** The WebSocket origin: the channel's base URL with http(s) turned into ws(s). */
export function sparkOrigin(baseUrl: string): URL {
  const url = new URL(baseUrl);
  if (url.protocol === 'http:') url.protocol = 'ws:';
  if (url.protocol === 'https:') url.protocol = 'wss:';
  return url;
}

/**
 * The signed handshake URL: HMAC-SHA256 with the APISecret over `host`, `date` and the request line, sent as
 * `authorization` (base64), `date` and `host` query parameters. The host signed is the host connected to,
 * so a base URL override signs for the server that checks it.
 */
export function signSparkUrl(baseUrl: string, path: string, credentials: SparkCredentials, date = new Date()): string {
  const origin = sparkOrigin(baseUrl);
  const host = origin.host;
  const rfc1123 = date.toUTCString();
  const signed = `host: ${host}\ndate: ${rfc1123}\nGET ${path} HTTP/1.1`;
  const signature = createHmac('sha256', credentials.apiSecret).update(signed).digest('base64');
  const authorization = `api_key="${credentials.apiKey}", algorithm="hmac-sha256", headers="host date request-line", signature="${signature}"`;
  const query = new URLSearchParams({
    authorization: Buffer.from(authorization).toString('base64'),
    date: rfc1123,
    host,
  });
  return `${origin.protocol}//${host}${path}?${query}`;
}

function sparkMessages(request: ChatRequest): SparkMessage[] {
  return request.messages.map((message) => {
    const content = messageText(message.content);
    if (message.role === 'system' || message.role === 'developer') return { role: 'system', content };
    if (message.role === 'assistant') {
      const call = message.tool_calls?.[0];
      return {
        role: 'assistant',
        content: content || (call ? `${call.function.name}(${call.function.arguments})` : ''),
      };
    }
    return { role: 'user', content }; // Spark has no tool role: results go back as user turns
  });
}

/** The one frame the client sends. `n` is not copied into `top_k` (a one-api slip). */
export function sparkFrame(call: RelayCall, credentials: SparkCredentials, domain: string): SparkRequest {
  const request = readChatRequest(call);
  const chat: SparkRequest['parameter']['chat'] = { domain };
  if (request.temperature !== undefined) chat.temperature = Math.min(1, Math.max(0, request.temperature));
  if (request.top_k !== undefined) chat.top_k = request.top_k;
  if (request.max_tokens !== undefined) chat.max_tokens = request.max_tokens;
  const frame: SparkRequest = {
    header: { app_id: credentials.appId, ...(request.user ? { uid: request.user.slice(0, 32) } : {}) },
    parameter: { chat },
    payload: { message: { text: sparkMessages(request) } },
  };
  const functions = offeredFunctions(request);
  if (functions.length > 0 && sparkSupportsFunctions(domain)) {
    frame.payload.functions = {
      text: functions.map(({ name, description, parameters }) => ({ name, description, parameters })),
    };
  }
  return frame;
}

/**
 * The WebSocket "request": a signed ws(s) URL and the frame to send once connected. The transport
 * (transport.ts) turns the server's frames into newline-separated JSON for readResponse/readStream.
 */
export function buildXunfeiRequest(call: RelayCall, date = new Date()): UpstreamRequest {
  const credentials = parseXunfeiKey(call.channel.key);
  const version = sparkVersion(call.model, call.channel.config.api_version);
  const url = signSparkUrl(call.channel.baseUrl, sparkPath(version), credentials, date);
  return { url, method: 'GET', headers: {}, body: JSON.stringify(sparkFrame(call, credentials, sparkDomain(version))) };
}
