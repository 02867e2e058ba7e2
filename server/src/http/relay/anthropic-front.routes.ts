import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { isAppError } from '../../lib/errors.js';
import { languageOf } from '../../lib/language.js';
import type { ChatCompletion } from '../../relay/adaptors/chat-shapes/openai-chat.types.js';
import { assertModelAllowed } from '../../relay/auth/token-auth.js';
import { anthropicChannelLimit } from '../../relay/fronts/anthropic/claude-channels.js';
import { anthropicClientHeaders } from '../../relay/fronts/anthropic/client-headers.js';
import { documentReaders } from '../../relay/fronts/anthropic/documents.js';
import { anthropicError } from '../../relay/fronts/anthropic/errors.js';
import {
  anthropicToChatRequest,
  hasServerTools,
  maxWebSearches,
  type AnthropicFrontRequest,
} from '../../relay/fronts/anthropic/request.js';
import { chatCompletionToAnthropic } from '../../relay/fronts/anthropic/response.js';
import { AnthropicEventWriter } from '../../relay/fronts/anthropic/stream.js';
import { Cancel } from '../../relay/pipeline/cancel.js';
import type { FrontOutput, RelayJob } from '../../relay/pipeline/relay-job.js';
import { relayText } from '../../relay/pipeline/text-relay.js';
import { relayErrors } from '../../relay/relay-errors.js';
import type { RelayRuntime } from '../../relay/runtime.js';
import { countMessages } from '../../relay/tokenizer/count-tokens.js';
import { isUpstreamError } from '../../relay/upstream-error.js';
import { anthropicCountTokensBody, anthropicMessagesBody } from './anthropic-front.schema.js';
import { principalOf, tokenCheck } from './relay.routes.js';

const bodyLimitBytes = 32 * 1024 * 1024;

/** Renders every failure of the Anthropic front in Anthropic's error shape with a fitting status. */
function anthropicErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (reply.sent || reply.raw.headersSent) return;
  const acceptLanguage = request.headers['accept-language'];
  const language = !acceptLanguage || acceptLanguage.trim() === '*' ? 'zh' : languageOf(acceptLanguage);
  if (isAppError(error)) {
    const status = error.status === 200 ? 400 : error.status;
    return reply.status(status).send(anthropicError(status, `${error.text[language]} (request id: ${request.id})`));
  }
  if (isUpstreamError(error))
    return reply
      .status(error.status)
      .send(anthropicError(error.status, `${error.body.message} (request id: ${request.id})`));
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)
    return reply.status(error.statusCode).send(anthropicError(error.statusCode, error.message));
  request.log.error({ err: error }, 'anthropic front failed');
  return reply.status(500).send(anthropicError(500, `internal error of the gateway (request id: ${request.id})`));
}

/** Claude Code and the Anthropic SDKs send the key as `x-api-key`; the relay's token check reads Authorization. */
async function apiKeyAsAuthorization(request: FastifyRequest) {
  const apiKey = request.headers['x-api-key'];
  if (typeof apiKey === 'string' && apiKey !== '') request.headers.authorization = `Bearer ${apiKey}`;
}

function parseBody<T extends z.ZodTypeAny>(request: FastifyRequest, schema: T): z.infer<T> {
  const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    throw relayErrors.invalidRequest('the request body is not valid JSON');
  }
  const checked = schema.safeParse(value);
  if (!checked.success) throw relayErrors.invalidRequest(checked.error.issues[0]?.message ?? 'invalid request');
  return checked.data;
}

/** The relay's OpenAI output as Anthropic's: a message for whole answers, the event sequence for streams. */
function anthropicOutput(model: string, estimatedInputTokens: number): FrontOutput {
  const writer = new AnthropicEventWriter(model, estimatedInputTokens);
  return {
    whole: (body) => ({
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(
        JSON.stringify(chatCompletionToAnthropic(JSON.parse(body.toString('utf8')) as ChatCompletion, model)),
      ),
    }),
    event: (data) => {
      if (data === '[DONE]') return [...writer.end()].join('');
      let chunk: unknown;
      try {
        chunk = JSON.parse(data);
      } catch {
        return '';
      }
      return [...writer.accept(chunk as Record<string, unknown>)].join('');
    },
  };
}

/**
 * Anthropic's Messages API in front of every channel (beyond one-api): `POST /v1/messages` is converted to an
 * OpenAI chat request, relayed (routing, billing, retries as any chat call, to Claude or any other upstream)
 * and its answer, stream and errors converted back. `count_tokens` answers from the local tokenizer.
 */
export function anthropicFrontRoutes(scope: FastifyInstance, context: AppContext, runtime: RelayRuntime): void {
  void scope.register(async (front) => {
    front.setErrorHandler(anthropicErrorHandler);
    const preHandler = [apiKeyAsAuthorization, tokenCheck(context)];

    front.post('/v1/messages', { preHandler, bodyLimit: bodyLimitBytes }, async (request, reply) => {
      const principal = principalOf(request);
      const body = parseBody(request, anthropicMessagesBody) as AnthropicFrontRequest;
      const chat = anthropicToChatRequest(body, anthropicClientHeaders(request.headers));
      assertModelAllowed(principal.token, chat.model);
      const cancel = new Cancel();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) cancel.cancel();
      });
      const value = chat as unknown as Record<string, unknown>;
      const job: RelayJob = {
        context,
        runtime,
        principal,
        mode: 'chat',
        path: '/v1/chat/completions',
        query: '',
        requestId: request.id,
        startedAt: performance.now(),
        model: chat.model,
        stream: chat.stream === true,
        body: { kind: 'json', value, raw: Buffer.from(JSON.stringify(value)), filled: false },
        clientHeaders: { contentType: 'application/json' },
        cancel,
        reply,
        front: anthropicOutput(
          chat.model,
          chat.stream ? countMessages(chat.messages, chat.model, context.options.bool('ApproximateTokenEnabled')) : 0,
        ),
        // Documents go only to channels that read them, never silently dropped by another; server tools
        // prefer Claude channels (the others answer without them).
        channelLimit: anthropicChannelLimit(documentReaders(body.messages), hasServerTools(body), chat.model),
        maxWebSearches: maxWebSearches(body),
      };
      await relayText(job);
    });

    front.post('/v1/messages/count_tokens', { preHandler, bodyLimit: bodyLimitBytes }, async (request) => {
      principalOf(request);
      const body = parseBody(request, anthropicCountTokensBody) as AnthropicFrontRequest;
      const chat = anthropicToChatRequest({ ...body, max_tokens: 1 });
      return {
        input_tokens: countMessages(chat.messages, chat.model, context.options.bool('ApproximateTokenEnabled')),
      };
    });
  });
}
