import type { RelayCall, RelayMode } from '../../adaptor.js';

/** How an OpenAI-compatible upstream lays out its URLs and headers (data, not code: STYLE §3.5). */
export interface OpenAIUrlRules {
  /** Drop the front path's leading `/v1` (types 50 and 51 take a base that already ends in /v1). */
  stripV1?: boolean;
  /** Fixed upstream paths per mode (Doubao `/api/v3/chat/completions`, Baidu v2 `/v2/chat/completions` …). */
  paths?: Partial<Record<RelayMode, string>>;
  /** Extra headers every call carries (OpenRouter's referer and title). */
  headers?: Record<string, string>;
}

const cloudflareGateway = 'https://gateway.ai.cloudflare.com';

/** The upstream URL of an OpenAI-style call: base URL + front path (+ query), adjusted by the rules. */
export function openAIUrl(call: RelayCall, rules: OpenAIUrlRules): string {
  const base = call.channel.baseUrl;
  const fixed = rules.paths?.[call.mode];
  if (fixed) return base + fixed;
  let path = call.path;
  if (rules.stripV1 || base.startsWith(cloudflareGateway)) path = path.replace(/^\/v1(?=\/)/, '');
  return base + path + (call.query ? `?${call.query}` : '');
}

/** The body as it goes upstream: the client's own bytes unless the pipeline changed something. */
export function upstreamBody(call: RelayCall): Buffer | string {
  if (call.body.kind === 'binary') return call.body.raw;
  return call.body.changed ? JSON.stringify(call.body.value) : call.body.raw;
}

/** Content-Type and Accept as one-api sends them: the client's, with an SSE accept for streams. */
export function forwardedHeaders(call: RelayCall): Record<string, string> {
  const contentType = call.body.kind === 'binary' ? call.body.contentType : 'application/json';
  const headers: Record<string, string> = { 'content-type': contentType };
  headers.accept = call.clientHeaders.accept || (call.stream ? 'text/event-stream' : 'application/json');
  return headers;
}
