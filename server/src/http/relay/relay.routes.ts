import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import type { RelayMode } from '../../relay/adaptor.js';
import { assertModelAllowed, authenticateRelay, type RelayPrincipal } from '../../relay/auth/token-auth.js';
import { Cancel } from '../../relay/pipeline/cancel.js';
import { relayMedia } from '../../relay/pipeline/media-relay.js';
import type { RelayJob, RelayReply } from '../../relay/pipeline/relay-job.js';
import { relayText } from '../../relay/pipeline/text-relay.js';
import { relayErrors } from '../../relay/relay-errors.js';
import type { RelayRuntime } from '../../relay/runtime.js';
import { modelOf, readJobBody } from './relay-body.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API token and its owner, set by the relay's token check. */
    relayPrincipal?: RelayPrincipal;
  }
}

export const jsonLimitBytes = 4 * 1024 * 1024;
const uploadLimitBytes = 32 * 1024 * 1024;
const textModes = new Set<RelayMode>(['chat', 'completions', 'embeddings', 'moderations']);

/** The pre-handler of every relay route: the token checks of server-behaviour §4.3. */
export const tokenCheck = (context: AppContext) => async (request: FastifyRequest) => {
  request.relayPrincipal = await authenticateRelay(context, request.headers.authorization, request.ip);
};

export const principalOf = (request: FastifyRequest): RelayPrincipal => {
  if (!request.relayPrincipal) throw relayErrors.noToken();
  return request.relayPrincipal;
};

/** One front request as the relay needs it, whichever HTTP path (Fastify or the hot lane) brought it. */
export interface RelayRequest {
  principal: RelayPrincipal;
  mode: RelayMode;
  /** Path and query as the client sent them. */
  url: string;
  /** The model named in the path (`/v1/engines/:model/embeddings`). */
  pathModel?: string;
  requestId: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  reply: RelayReply;
}

/** Turns one front request into a relay job and runs it. */
export async function runRelay(context: AppContext, runtime: RelayRuntime, request: RelayRequest): Promise<void> {
  const { principal, mode, reply } = request;
  const body = await readJobBody(request.body, request.headers['content-type'] ?? '', mode, request.pathModel);
  const { model, stream } = modelOf(body);
  assertModelAllowed(principal.token, model);
  const cancel = new Cancel();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) cancel.cancel();
  });
  const [path = '', query = ''] = request.url.split('?');
  const job: RelayJob = {
    context,
    runtime,
    principal,
    mode,
    path: request.pathModel ? '/v1/embeddings' : path,
    query,
    requestId: request.requestId,
    startedAt: performance.now(),
    model,
    stream: stream && (mode === 'chat' || mode === 'completions'),
    body,
    clientHeaders: { contentType: request.headers['content-type'], accept: request.headers.accept },
    cancel,
    reply,
  };
  await (textModes.has(mode) ? relayText(job) : relayMedia(job));
}

function relayHandler(context: AppContext, runtime: RelayRuntime, mode: RelayMode) {
  return (request: FastifyRequest<{ Params: { model?: string } }>, reply: FastifyReply) =>
    runRelay(context, runtime, {
      principal: principalOf(request),
      mode,
      url: request.url,
      pathModel: request.params.model,
      requestId: request.id,
      headers: request.headers,
      body: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
      reply,
    });
}

const notImplemented = [
  ['POST', '/v1/edits'],
  ['GET', '/v1/files'],
  ['POST', '/v1/files'],
  ['DELETE', '/v1/files/:id'],
  ['GET', '/v1/files/:id'],
  ['GET', '/v1/files/:id/content'],
  ['POST', '/v1/fine_tuning/jobs'],
  ['GET', '/v1/fine_tuning/jobs'],
  ['GET', '/v1/fine_tuning/jobs/:id'],
  ['POST', '/v1/fine_tuning/jobs/:id/cancel'],
  ['GET', '/v1/fine_tuning/jobs/:id/events'],
  ['DELETE', '/v1/models/:model'],
  ['POST', '/v1/assistants'],
  ['GET', '/v1/assistants'],
  ['GET', '/v1/assistants/:id'],
  ['POST', '/v1/assistants/:id'],
  ['DELETE', '/v1/assistants/:id'],
  ['POST', '/v1/threads'],
  ['GET', '/v1/threads/:id'],
  ['POST', '/v1/threads/:id'],
  ['DELETE', '/v1/threads/:id'],
  ['POST', '/v1/threads/:id/messages'],
  ['GET', '/v1/threads/:id/messages'],
  ['POST', '/v1/threads/:id/runs'],
  ['GET', '/v1/threads/:id/runs'],
  ['POST', '/v1/threads/runs'],
] as const;

/** The relaying routes of /v1 (server-behaviour §4.1). */
export function relayRoutes(scope: FastifyInstance, context: AppContext, runtime: RelayRuntime): void {
  const preHandler = tokenCheck(context);
  const route = (path: string, mode: RelayMode, bodyLimit = jsonLimitBytes) =>
    scope.post<{ Params: { model?: string } }>(path, { preHandler, bodyLimit }, relayHandler(context, runtime, mode));
  route('/v1/chat/completions', 'chat');
  route('/v1/completions', 'completions');
  route('/v1/embeddings', 'embeddings');
  route('/v1/engines/:model/embeddings', 'embeddings');
  route('/v1/moderations', 'moderations');
  route('/v1/images/generations', 'images');
  route('/v1/images/edits', 'images', uploadLimitBytes);
  route('/v1/images/variations', 'images', uploadLimitBytes);
  route('/v1/audio/speech', 'audio-speech');
  route('/v1/audio/transcriptions', 'audio-transcription', uploadLimitBytes);
  route('/v1/audio/translations', 'audio-translation', uploadLimitBytes);
  for (const [method, path] of notImplemented) {
    scope.route({
      method,
      url: path,
      preHandler,
      bodyLimit: uploadLimitBytes,
      handler: async () => {
        throw relayErrors.notImplemented();
      },
    });
  }
}
