import type { IncomingHttpHeaders } from 'node:http';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { isAppError } from '../../lib/errors.js';
import { claudeRequestOriginal } from '../../relay/adaptors/anthropic/claude-original.js';
import type { ChatCompletion } from '../../relay/adaptors/openai-kit/chat-types.js';
import type { ClaudeRequest } from '../../relay/adaptors/anthropic/types.js';
import { assertModelAllowed } from '../../relay/auth/token-auth.js';
import { anthropicChannelLimit } from '../../relay/fronts/anthropic/claude-channels.js';
import { anthropicClientHeaders } from '../../relay/fronts/anthropic/client-headers.js';
import { documentReaders } from '../../relay/fronts/anthropic/documents.js';
import { anthropicError, anthropicLowBalance } from '../../relay/fronts/anthropic/errors.js';
import {
  anthropicToChatRequest,
  droppedForOtherChannels,
  hasServerTools,
  maxWebSearches,
  type AnthropicFrontRequest,
} from '../../relay/fronts/anthropic/request.js';
import { chatCompletionToAnthropic } from '../../relay/fronts/anthropic/response.js';
import { AnthropicEventWriter, ClaudeNativeStream } from '../../relay/fronts/anthropic/stream.js';
import { droppedHeaders, sentWholeTo } from '../../relay/fronts/dropped-header.js';
import type { FrontOutput } from '../../relay/pipeline/relay-job.js';
import { relayText } from '../../relay/pipeline/text-relay.js';
import { refusalKindOf, relayErrors } from '../../relay/relay-errors.js';
import type { RelayRuntime } from '../../relay/runtime.js';
import { countMessages } from '../../relay/tokenizer/count-tokens.js';
import { isUpstreamError } from '../../relay/upstream-error.js';
import {
  anthropicBodyProblem,
  anthropicCountTokensBody,
  anthropicMessagesBody,
  anthropicMessagesPasses,
} from './anthropic-front.schema.js';
import { frontRelayJob, parseJsonBody } from './front-job.js';
import { relayLanguage, type ErrorAnswer } from './openai-error.js';
import type { RelayEndpoint, RelayRoute } from './relay-entry.js';
import { sendJson } from './relay-entry.js';

const bodyLimitBytes = 32 * 1024 * 1024;

/** Every failure of the Anthropic front in Anthropic's error shape with a fitting status. */
const anthropicErrorAnswer: ErrorAnswer = (error, requestId, acceptLanguage, logUnexpected) => {
  const withRequestId = (message: string) => `${message} (request id: ${requestId})`;
  if (isAppError(error)) {
    const text = withRequestId(error.text[relayLanguage(acceptLanguage)]);
    if (refusalKindOf(error) === 'low_balance') return anthropicLowBalance(text);
    const status = error.status === 200 ? 400 : error.status;
    return { status, body: anthropicError(status, text) };
  }
  if (isUpstreamError(error))
    return { status: error.status, body: anthropicError(error.status, withRequestId(error.body.message)) };
  const { statusCode } = error as { statusCode?: number };
  if (statusCode && statusCode >= 400 && statusCode < 500)
    return { status: statusCode, body: anthropicError(statusCode, (error as Error).message) };
  logUnexpected(error);
  return { status: 500, body: anthropicError(500, withRequestId('internal error of the gateway')) };
};

/** Claude Code and the Anthropic SDKs send the key as `x-api-key`; it wins over Authorization. */
function anthropicAuthorization(headers: IncomingHttpHeaders): string | undefined {
  const apiKey = headers['x-api-key'];
  return typeof apiKey === 'string' && apiKey !== '' ? `Bearer ${apiKey}` : headers.authorization;
}

function parseBody<T extends z.ZodTypeAny>(raw: Buffer, schema: T, passes?: (body: unknown) => boolean): z.infer<T> {
  const parsed = parseJsonBody(raw);
  // The schema's copy is the body itself (no defaults, no transforms), so a body that certainly passes is used as is.
  if (passes?.(parsed)) return parsed as z.infer<T>;
  const checked = schema.safeParse(parsed);
  if (!checked.success) throw relayErrors.invalidRequest(anthropicBodyProblem(checked.error));
  return checked.data;
}

/** The relay's OpenAI output as Anthropic's: a message for whole answers, the event sequence for streams. */
function anthropicOutput(model: string, estimatedInputTokens: () => number): FrontOutput {
  const writer = new AnthropicEventWriter(model, estimatedInputTokens);
  return {
    whole: (body) => ({
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(
        JSON.stringify(chatCompletionToAnthropic(JSON.parse(body.toString('utf8')) as ChatCompletion, model)),
      ),
    }),
    event: (data) => writer.payload(data),
    nativeStream: () => new ClaudeNativeStream(writer, model),
  };
}

/**
 * Anthropic's Messages API in front of every channel (beyond one-api): `POST /v1/messages` is converted to an
 * OpenAI chat request, relayed (routing, billing, retries as any chat call, to Claude or any other upstream)
 * and its answer, stream and errors converted back. `count_tokens` answers from the local tokenizer.
 */
export function anthropicFrontRoutes(context: AppContext, runtime: RelayRuntime): RelayRoute[] {
  const front = (handle: RelayEndpoint['handle']): RelayEndpoint => ({
    bodyLimitBytes,
    handle,
    authorization: anthropicAuthorization,
    errorAnswer: anthropicErrorAnswer,
  });
  const messages = front(async ({ principal, body: raw, request, reply, requestId }) => {
    const body = parseBody(raw, anthropicMessagesBody, anthropicMessagesPasses) as AnthropicFrontRequest;
    const chat = anthropicToChatRequest(body, anthropicClientHeaders(request.headers));
    assertModelAllowed(principal.token, chat.model);
    const original = claudeRequestOriginal(chat);
    // Anthropic's own API gets the request as it came (adaptors/anthropic/request.ts, `clientRequestAsSent`).
    if (original) original.sent = { body: body as ClaudeRequest, bytes: raw, messages: chat.messages };
    const job = frontRelayJob(context, runtime, { principal, requestId, reply }, chat, {
      native: original && { protocol: 'anthropic', original },
      front: {
        ...anthropicOutput(chat.model, () =>
          chat.stream ? countMessages(chat.messages, chat.model, context.options.bool('ApproximateTokenEnabled')) : 0,
        ),
        answerHeaders: droppedHeaders(droppedForOtherChannels(body), sentWholeTo(original), chat),
      },
      // Documents go only to channels that read them, never silently dropped by another; server tools
      // prefer Claude channels (the others answer without them).
      channelLimit: anthropicChannelLimit(documentReaders(body.messages), hasServerTools(body), chat.model),
      maxWebSearches: maxWebSearches(body),
    });
    await relayText(job);
  });
  const countTokens = front(async ({ body: raw, reply }) => {
    const body = parseBody(raw, anthropicCountTokensBody) as AnthropicFrontRequest;
    const chat = anthropicToChatRequest({ ...body, max_tokens: 1 });
    sendJson(reply, 200, {
      input_tokens: countMessages(chat.messages, chat.model, context.options.bool('ApproximateTokenEnabled')),
    });
  });
  return [
    { method: 'POST', path: '/v1/messages', endpoint: messages },
    { method: 'POST', path: '/v1/messages/count_tokens', endpoint: countTokens },
  ];
}
