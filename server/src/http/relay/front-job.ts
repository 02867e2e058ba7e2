import type { AppContext } from '../../context.js';
import { parseJsonBody as parseJson, type JsonBodyError } from '../../lib/json-body.js';
import type { ChatRequest } from '../../relay/adaptors/openai-kit/chat-types.js';
import type { RelayJob } from '../../relay/pipeline/relay-job.js';
import { relayErrors } from '../../relay/relay-errors.js';
import { relaySessionOf, type SessionClues } from '../../relay/routing/session-key.js';
import type { RelayRuntime } from '../../relay/runtime.js';
import type { EntryCall } from './relay-entry.js';
import { cancelOnClose } from './relay.routes.js';

/**
 * A front's request body as JSON, or the relay's refusal (a 400 in the front's dialect) when it is not JSON or
 * nests too deep (the schema check follows).
 */
export function parseJsonBody(raw: Buffer): unknown {
  try {
    return parseJson(raw);
  } catch (error) {
    throw relayErrors.invalidRequest((error as JsonBodyError).message);
  }
}

const noClientBytes = Buffer.alloc(0);

/** The OpenAI calls a converting front's request can be relayed as, and their paths. */
const frontCallPaths = { chat: '/v1/chat/completions', embeddings: '/v1/embeddings' } as const;

/** A converted request: an OpenAI chat request, or an embeddings request (`{ model, input, … }`). */
type ConvertedRequest = Pick<ChatRequest, 'model' | 'stream' | 'user'>;

/**
 * The job of a converting front (Anthropic Messages, OpenAI Responses, Gemini): its converted request relayed
 * as a `/v1/chat/completions` call (or, with `mode: 'embeddings'`, a `/v1/embeddings` one, never streamed),
 * answered in the front's shapes through its `front` output. Its session comes from the request's headers,
 * the converted request's `user` and the front's own `sessionClues`.
 */
export function frontRelayJob(
  context: AppContext,
  runtime: RelayRuntime,
  call: Pick<EntryCall, 'principal' | 'requestId' | 'reply'>,
  request: ConvertedRequest,
  {
    mode = 'chat',
    sessionClues,
    ...parts
  }: Pick<RelayJob, 'front' | 'native' | 'channelLimit' | 'maxWebSearches'> & {
    mode?: keyof typeof frontCallPaths;
    sessionClues?: SessionClues;
  },
): RelayJob {
  const value = request as unknown as Record<string, unknown>;
  // The entry's reply is Node's response to this very request.
  const { headers } = call.reply.raw.req;
  return {
    context,
    runtime,
    principal: call.principal,
    mode,
    path: frontCallPaths[mode],
    query: '',
    requestId: call.requestId,
    startedAt: performance.now(),
    model: request.model,
    stream: mode === 'chat' && request.stream === true,
    // No client bytes stand for a converted request: `filled` has an OpenAI channel serialise it when it is
    // sent, and a call that never goes to one (the native road, other vendors) never pays for it.
    body: { kind: 'json', value, raw: noClientBytes, filled: true },
    clientHeaders: { contentType: 'application/json' },
    cancel: cancelOnClose(call.reply),
    reply: call.reply,
    session: relaySessionOf(context.options, call.principal.token.id, request.model, headers, {
      user: request.user,
      ...sessionClues,
    }),
    ...parts,
  };
}
