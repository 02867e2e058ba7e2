import type { AppContext } from '../../context.js';
import type { ChatRequest } from '../../relay/adaptors/openai-kit/chat-types.js';
import type { RelayJob } from '../../relay/pipeline/relay-job.js';
import { relayErrors } from '../../relay/relay-errors.js';
import { relaySessionOf, type SessionClues } from '../../relay/routing/session-key.js';
import type { RelayRuntime } from '../../relay/runtime.js';
import type { EntryCall } from './relay-entry.js';
import { cancelOnClose } from './relay.routes.js';

/** A front's request body as JSON, or the relay's refusal when it is not JSON (the schema check follows). */
export function parseJsonBody(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw relayErrors.invalidRequest('the request body is not valid JSON');
  }
}

/**
 * The chat job of a converting front (Anthropic Messages, OpenAI Responses): its converted request relayed as
 * a `/v1/chat/completions` call, answered through the front's `reply` and `front` output. Its session comes
 * from the request's headers, the converted request's `user` and the front's own `sessionClues`.
 */
export function frontChatJob(
  context: AppContext,
  runtime: RelayRuntime,
  call: Pick<EntryCall, 'principal' | 'requestId' | 'reply'>,
  chat: ChatRequest,
  {
    sessionClues,
    ...parts
  }: Pick<RelayJob, 'reply' | 'front' | 'channelLimit' | 'maxWebSearches'> & {
    sessionClues?: SessionClues;
  },
): RelayJob {
  const value = chat as unknown as Record<string, unknown>;
  // The entry's reply is Node's response to this very request.
  const { headers } = call.reply.raw.req;
  return {
    context,
    runtime,
    principal: call.principal,
    mode: 'chat',
    path: '/v1/chat/completions',
    query: '',
    requestId: call.requestId,
    startedAt: performance.now(),
    model: chat.model,
    stream: chat.stream === true,
    body: { kind: 'json', value, raw: Buffer.from(JSON.stringify(value)), filled: false },
    clientHeaders: { contentType: 'application/json' },
    cancel: cancelOnClose(call.reply),
    session: relaySessionOf(context.options, call.principal.token.id, chat.model, headers, {
      user: chat.user,
      ...sessionClues,
    }),
    ...parts,
  };
}
