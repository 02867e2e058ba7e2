import type { IncomingHttpHeaders } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { request as undiciRequest } from 'undici';
import type { AppContext } from '../../context.js';
import { findChannelById } from '../../domain/channel/channel.repository.js';
import { LogType } from '../../domain/log/log.constants.js';
import { recordLog } from '../../domain/log/log.writer.js';
import { Role } from '../../domain/user/user.constants.js';
import { ChannelType } from '../../domain/channel/channel.constants.js';
import { relayErrors } from '../../relay/relay-errors.js';
import { redactUpstreamError, transportError } from '../../relay/upstream-error.js';
import { sendJson, type EntryCall, type RelayRoute } from './relay-entry.js';

/** Client headers never forwarded (one-api's list, plus our own auth: the channel key replaces it). */
const droppedRequestHeaders = new Set([
  'host',
  'content-length',
  'accept-encoding',
  'connection',
  'authorization',
  'x-api-key',
  'transfer-encoding',
]);
const droppedResponseHeaders = new Set(['connection', 'transfer-encoding', 'keep-alive', 'content-length']);
const proxyBodyLimitBytes = 32 * 1024 * 1024;

function forwardedHeaders(clientHeaders: IncomingHttpHeaders, key: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(clientHeaders)) {
    if (value === undefined || droppedRequestHeaders.has(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  // The key goes verbatim: a channel whose upstream wants `Bearer …` stores it with the prefix.
  headers.authorization = key;
  return headers;
}

/**
 * `ANY /v1/oneapi/proxy/:channelId/*`: raw pass-through to a Proxy (type 43) channel's base URL with the
 * channel key as Authorization. one-api let any token holder use any channel this way, unbilled and unlogged;
 * here only administrators may (the rule for choosing a channel by hand), and every call is logged.
 */
export function proxyRoutes(context: AppContext): RelayRoute[] {
  const handle = async ({ principal, request, params, body, reply, requestId }: EntryCall) => {
    if (principal.user.role < Role.Admin) throw relayErrors.channelForbidden();
    const channelId = Number(params.channelId);
    if (!Number.isInteger(channelId) || channelId <= 0) throw relayErrors.invalidChannelId();
    const channel = await findChannelById(context.database.db, channelId);
    if (!channel || channel.type !== ChannelType.Proxy) throw relayErrors.invalidChannelId();
    if (channel.status !== 1) throw relayErrors.channelDisabled();
    const url = request.url ?? '';
    const method = request.method ?? 'GET';
    const query = url.includes('?') ? url.slice(url.indexOf('?')) : '';
    const target = `${(channel.base_url ?? '').replace(/\/+$/, '')}/${params['*']}${query}`;
    const started = performance.now();
    const controller = new AbortController();
    reply.raw.on('close', () => controller.abort());
    const timeoutMs = context.config.RELAY_TIMEOUT > 0 ? context.config.RELAY_TIMEOUT * 1000 : undefined;
    let upstream;
    try {
      upstream = await undiciRequest(target, {
        method: method as 'GET',
        headers: forwardedHeaders(request.headers, channel.key),
        body: method === 'GET' || method === 'HEAD' || body.length === 0 ? undefined : body,
        signal: controller.signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
    } catch (error) {
      const failure = redactUpstreamError(
        transportError(error, String((error as { code?: string }).code ?? '').includes('TIMEOUT')),
        { key: channel.key, baseUrl: channel.base_url ?? '' },
      );
      sendJson(reply, failure.status, {
        error: { message: failure.message, type: failure.body.type, param: null, code: failure.body.code },
      });
      return;
    }
    await recordLog(context, {
      user_id: principal.user.id,
      username: principal.user.username,
      token_name: principal.token.name,
      type: LogType.Consume,
      content: `代理请求 ${method} /${params['*']} → ${upstream.statusCode}`,
      channel_id: channel.id,
      request_id: requestId,
      elapsed_time: Math.round(performance.now() - started),
      quota: 0,
      is_stream: 0,
      system_prompt_reset: 0,
    });
    const headers: Record<string, string | string[]> = { ...reply.getHeaders() };
    for (const [name, value] of Object.entries(upstream.headers)) {
      if (value !== undefined && !droppedResponseHeaders.has(name)) headers[name] = value;
    }
    reply.raw.writeHead(upstream.statusCode, headers);
    // Once the head is out a failure can only end the answer early: the client sees it cut.
    await pipeline(upstream.body, reply.raw).catch(() => reply.raw.destroy());
  };
  return [
    {
      method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'],
      path: '/v1/oneapi/proxy/:channelId/*',
      endpoint: { bodyLimitBytes: proxyBodyLimitBytes, handle },
    },
  ];
}
