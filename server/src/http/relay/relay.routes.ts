import { notImplementedRoutes } from '@modelgate/wire';
import type { AppContext } from '../../context.js';
import type { RelayMode } from '../../relay/adaptor.js';
import { assertModelAllowed } from '../../relay/auth/token-auth.js';
import { Cancel } from '../../relay/pipeline/cancel.js';
import { relayMedia } from '../../relay/pipeline/media-relay.js';
import type { RelayJob, RelayReply } from '../../relay/pipeline/relay-job.js';
import { relayText } from '../../relay/pipeline/text-relay.js';
import { relayErrors } from '../../relay/relay-errors.js';
import { relaySessionOf } from '../../relay/routing/session-key.js';
import type { RelayRuntime } from '../../relay/runtime.js';
import { modelOf, readJobBody } from './relay-body.js';
import type { EntryCall, RelayEndpoint, RelayRoute } from './relay-entry.js';

export const jsonLimitBytes = 4 * 1024 * 1024;
export const uploadLimitBytes = 32 * 1024 * 1024;
const textModes = new Set<RelayMode>(['chat', 'completions', 'embeddings', 'moderations']);

/** The routes most calls take: the fast path serves them beside Fastify (decision 0022). */
export const busiestRoutes = new Set([
  '/v1/chat/completions',
  '/v1/completions',
  '/v1/embeddings',
  // The agents' fronts: Claude Code (which adds `?beta=true`) and Codex call them on every turn.
  '/v1/messages',
  '/v1/responses',
]);

/** Cancels the job's upstream call when the client goes away before its answer is written. */
export function cancelOnClose(reply: RelayReply): Cancel {
  const cancel = new Cancel();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) cancel.cancel();
  });
  return cancel;
}

/** Turns one front request into a relay job and runs it. */
async function runRelay(context: AppContext, runtime: RelayRuntime, mode: RelayMode, call: EntryCall): Promise<void> {
  const { principal, reply, request } = call;
  const pathModel = call.params.model;
  const body = await readJobBody(call.body, request.headers['content-type'] ?? '', mode, pathModel);
  const { model, stream } = modelOf(body);
  assertModelAllowed(principal.token, model);
  const [path = '', query = ''] = (request.url ?? '').split('?');
  // Only conversations gain from a warm prompt cache.
  const session =
    body.kind === 'json' && (mode === 'chat' || mode === 'completions')
      ? relaySessionOf(context.options, principal.token.id, model, request.headers, {
          promptCacheKey: body.value.prompt_cache_key,
          user: body.value.user,
        })
      : undefined;
  const job: RelayJob = {
    context,
    runtime,
    principal,
    mode,
    path: pathModel ? '/v1/embeddings' : path,
    query,
    requestId: call.requestId,
    startedAt: performance.now(),
    model,
    stream: stream && (mode === 'chat' || mode === 'completions'),
    body,
    clientHeaders: { contentType: request.headers['content-type'], accept: request.headers.accept },
    cancel: cancelOnClose(reply),
    reply,
    session,
  };
  await (textModes.has(mode) ? relayText(job) : relayMedia(job));
}

/** The relaying routes of /v1 (server-behaviour §4.1), and the OpenAI ones one-api never served. */
export function relayRoutes(context: AppContext, runtime: RelayRuntime): RelayRoute[] {
  const route = (path: string, mode: RelayMode, bodyLimitBytes = jsonLimitBytes): RelayRoute => ({
    method: 'POST',
    path,
    endpoint: { bodyLimitBytes, handle: (call) => runRelay(context, runtime, mode, call) },
  });
  const refused: RelayEndpoint = {
    bodyLimitBytes: uploadLimitBytes,
    handle: async () => {
      throw relayErrors.notImplemented();
    },
  };
  return [
    route('/v1/chat/completions', 'chat'),
    route('/v1/completions', 'completions'),
    route('/v1/embeddings', 'embeddings'),
    route('/v1/engines/:model/embeddings', 'embeddings'),
    route('/v1/moderations', 'moderations'),
    route('/v1/images/generations', 'images'),
    route('/v1/images/edits', 'images', uploadLimitBytes),
    route('/v1/images/variations', 'images', uploadLimitBytes),
    route('/v1/audio/speech', 'audio-speech'),
    route('/v1/audio/transcriptions', 'audio-transcription', uploadLimitBytes),
    route('/v1/audio/translations', 'audio-translation', uploadLimitBytes),
    ...notImplementedRoutes.map(([method, path]): RelayRoute => ({ method, path, endpoint: refused })),
  ];
}
