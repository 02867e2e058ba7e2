import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { request as undiciRequest } from 'undici';
import type { AppContext } from '../../context.js';
import { findChannelById } from '../../domain/channel/channel.repository.js';
import { LogType } from '../../domain/log/log.constants.js';
import { recordLog } from '../../domain/log/log.writer.js';
import { Role } from '../../domain/user/user.constants.js';
import { ChannelType } from '../../relay/channel-types.js';
import { relayErrors } from '../../relay/relay-errors.js';
import { redactUpstreamError, transportError } from '../../relay/upstream-error.js';
import { principalOf, tokenCheck } from './relay.routes.js';

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

function forwardedHeaders(request: FastifyRequest, key: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
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
export function proxyRoutes(scope: FastifyInstance, context: AppContext): void {
  const handler = async (
    request: FastifyRequest<{ Params: { channelId: string; '*': string } }>,
    reply: FastifyReply,
  ) => {
    const principal = principalOf(request);
    if (principal.user.role < Role.Admin) throw relayErrors.channelForbidden();
    const channelId = Number(request.params.channelId);
    if (!Number.isInteger(channelId) || channelId <= 0) throw relayErrors.invalidChannelId();
    const channel = await findChannelById(context.database.db, channelId);
    if (!channel || channel.type !== ChannelType.Proxy) throw relayErrors.invalidChannelId();
    if (channel.status !== 1) throw relayErrors.channelDisabled();
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    const target = `${(channel.base_url ?? '').replace(/\/+$/, '')}/${request.params['*']}${query}`;
    const started = performance.now();
    const controller = new AbortController();
    reply.raw.on('close', () => controller.abort());
    const timeoutMs = context.config.RELAY_TIMEOUT > 0 ? context.config.RELAY_TIMEOUT * 1000 : undefined;
    let upstream;
    try {
      upstream = await undiciRequest(target, {
        method: request.method as 'GET',
        headers: forwardedHeaders(request, channel.key),
        body: request.method === 'GET' || request.method === 'HEAD' ? undefined : (request.body as Buffer | undefined),
        signal: controller.signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
    } catch (error) {
      const failure = redactUpstreamError(
        transportError(error, String((error as { code?: string }).code ?? '').includes('TIMEOUT')),
        { key: channel.key, baseUrl: channel.base_url ?? '' },
      );
      reply
        .status(failure.status)
        .send({ error: { message: failure.message, type: failure.body.type, param: null, code: failure.body.code } });
      return reply;
    }
    await recordLog(context, {
      user_id: principal.user.id,
      username: principal.user.username,
      token_name: principal.token.name,
      type: LogType.Consume,
      content: `代理请求 ${request.method} /${request.params['*']} → ${upstream.statusCode}`,
      channel_id: channel.id,
      request_id: request.id,
      elapsed_time: Math.round(performance.now() - started),
      quota: 0,
      is_stream: 0,
      system_prompt_reset: 0,
    });
    reply.status(upstream.statusCode);
    for (const [name, value] of Object.entries(upstream.headers)) {
      if (value !== undefined && !droppedResponseHeaders.has(name)) reply.header(name, value);
    }
    return reply.send(upstream.body);
  };
  scope.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'],
    url: '/v1/oneapi/proxy/:channelId/*',
    preHandler: tokenCheck(context),
    bodyLimit: proxyBodyLimitBytes,
    handler,
  });
}
