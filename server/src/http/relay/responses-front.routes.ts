import type { AppContext } from '../../context.js';
import {
  conversationAfterOrThrow,
  deleteResponseOfUser,
  findResponseOfUser,
  inputItemsPage,
  saveResponse,
  type JsonObject,
  type StoredResponse,
} from '../../domain/response/response.repository.js';
import { responseNotFound } from '../../domain/response/response.errors.js';
import { nowSeconds } from '../../lib/time.js';
import type { ChatCompletion } from '../../relay/adaptors/openai-kit/chat-types.js';
import { assertModelAllowed } from '../../relay/auth/token-auth.js';
import { reportingDropped } from '../../relay/fronts/anthropic/dropped-header.js';
import { ResponsesRequestError } from '../../relay/fronts/responses/errors.js';
import { inputItemsOf, responsesToChatRequest } from '../../relay/fronts/responses/request.js';
import {
  chatCompletionToResponse,
  inputItemWithId,
  responseId,
  type ResponseContext,
} from '../../relay/fronts/responses/response.js';
import { ResponsesEventWriter } from '../../relay/fronts/responses/stream.js';
import type { ResponsesRequest, ResponsesResponse } from '../../relay/fronts/responses/types.js';
import type { FrontOutput } from '../../relay/pipeline/relay-job.js';
import { relayText } from '../../relay/pipeline/text-relay.js';
import type { RelayRuntime } from '../../relay/runtime.js';
import { frontChatJob, parseJsonBody } from './front-job.js';
import { openAIErrorAnswer, type ErrorAnswer } from './openai-error.js';
import type { RelayEndpoint, RelayRoute } from './relay-entry.js';
import { sendJson } from './relay-entry.js';
import { responsesBodyProblem, responsesCreateBody } from './responses-front.schema.js';

const bodyLimitBytes = 32 * 1024 * 1024;

/** OpenAI's error object, with the offending field in `param` when the request could not be converted. */
const responsesErrorAnswer: ErrorAnswer = (error, requestId, acceptLanguage, logUnexpected) => {
  const answer = openAIErrorAnswer(error, requestId, acceptLanguage, logUnexpected);
  if (error instanceof ResponsesRequestError) answer.body.error.param = error.param;
  return answer;
};

function parseCreateBody(raw: Buffer): ResponsesRequest {
  const checked = responsesCreateBody.safeParse(parseJsonBody(raw));
  if (checked.success) return checked.data as ResponsesRequest;
  const problem = responsesBodyProblem(checked.error);
  throw new ResponsesRequestError(problem.param, problem.detail);
}

/** What a stored response keeps besides its conversation: the response object without output and usage. */
function storedFields(response: ResponsesResponse): JsonObject {
  const { output: _output, usage: _usage, status: _status, ...settings } = response;
  return settings;
}

/** A stored response as the response object it was. */
const storedResponseObject = (stored: StoredResponse) => ({
  ...stored.settings,
  status: stored.status,
  output: stored.outputItems,
  usage: stored.usage,
});

/**
 * OpenAI's Responses API in front of every channel (beyond one-api): `POST /v1/responses` is converted to a
 * chat request (with the stored conversation of `previous_response_id` before its input), relayed (routing,
 * billing, retries as any chat call) and its answer or stream converted back; what chat channels cannot take
 * is named in `x-modelgate-dropped`. Responses are stored unless `store` is false, readable, listable and
 * deletable by their owner until they expire.
 */
export function responsesFrontRoutes(context: AppContext, runtime: RelayRuntime): RelayRoute[] {
  const db = context.database.db;
  // Responses are written after their answer went out; a client continuing one at once (a tool loop) must
  // still find it, so reads of an id wait for its write on this node first.
  const saving = new Map<string, Promise<void>>();
  const saved = (id: string | null | undefined) => (id ? saving.get(id) : undefined);
  const endpoint = (handle: RelayEndpoint['handle']): RelayEndpoint => ({
    bodyLimitBytes,
    handle,
    errorAnswer: responsesErrorAnswer,
  });

  const create = endpoint(async ({ principal, body: raw, reply, requestId }) => {
    const body = parseCreateBody(raw);
    const now = nowSeconds();
    const input = inputItemsOf(body.input);
    await saved(body.previous_response_id);
    const items = body.previous_response_id
      ? await conversationAfterOrThrow(db, principal.user.id, body.previous_response_id, input, now)
      : input;
    const { chat, dropped } = responsesToChatRequest(body, items);
    assertModelAllowed(principal.token, chat.model);
    const responseContext: ResponseContext = { id: responseId(), createdAt: now, request: body };
    // A failed write costs the client only its previous_response_id.
    const store = (response: ResponsesResponse) => {
      if (body.store === false) return;
      const write = saveResponse(db, {
        id: response.id,
        userId: principal.user.id,
        tokenId: principal.token.id,
        model: chat.model,
        status: response.status,
        createdAt: response.created_at,
        inputItems: items.map(inputItemWithId),
        outputItems: response.output as unknown as JsonObject[],
        usage: response.usage as unknown as JsonObject | null,
        settings: storedFields(response),
      })
        .catch((error: unknown) => context.logger.warn({ err: error, requestId }, 'storing a response failed'))
        .finally(() => saving.delete(response.id));
      saving.set(response.id, write);
    };
    const job = frontChatJob(context, runtime, { principal, requestId, reply }, chat, {
      reply: reportingDropped(reply, dropped, chat),
      front: responsesOutput(responseContext, store),
      sessionClues: {
        promptCacheKey: body.prompt_cache_key,
        previousResponseId: body.previous_response_id,
        responseId: body.store === false ? undefined : responseContext.id,
      },
    });
    await relayText(job);
  });

  const storedOrThrow = async (userId: number, id: string | undefined) => {
    await saved(id);
    const stored = id ? await findResponseOfUser(db, userId, id, nowSeconds()) : undefined;
    if (!stored) throw responseNotFound(id ?? '');
    return stored;
  };
  const read = endpoint(async ({ principal, params, reply }) => {
    sendJson(reply, 200, storedResponseObject(await storedOrThrow(principal.user.id, params.id)));
  });
  const remove = endpoint(async ({ principal, params, reply }) => {
    const id = params.id ?? '';
    await saved(id);
    if (!(await deleteResponseOfUser(db, principal.user.id, id))) throw responseNotFound(id);
    sendJson(reply, 200, { id, object: 'response', deleted: true });
  });
  const inputItems = endpoint(async ({ principal, params, request, reply }) => {
    const stored = await storedOrThrow(principal.user.id, params.id);
    const query = new URL(request.url ?? '', 'http://relay').searchParams;
    const limit = query.has('limit') ? Number(query.get('limit')) : undefined;
    const page = inputItemsPage(stored, {
      order: query.get('order') === 'asc' ? 'asc' : 'desc',
      after: query.get('after') ?? undefined,
      limit: Number.isFinite(limit) ? limit : undefined,
    });
    sendJson(reply, 200, {
      object: 'list',
      data: page.items,
      first_id: page.items[0]?.id ?? null,
      last_id: page.items.at(-1)?.id ?? null,
      has_more: page.hasMore,
    });
  });
  return [
    { method: 'POST', path: '/v1/responses', endpoint: create },
    { method: 'GET', path: '/v1/responses/:id', endpoint: read },
    { method: 'DELETE', path: '/v1/responses/:id', endpoint: remove },
    { method: 'GET', path: '/v1/responses/:id/input_items', endpoint: inputItems },
  ];
}

/** The relay's OpenAI output as a response object or the Responses event stream; `store` gets the result. */
function responsesOutput(context: ResponseContext, store: (response: ResponsesResponse) => void): FrontOutput {
  const writer = new ResponsesEventWriter(context);
  return {
    whole: (body) => {
      const response = chatCompletionToResponse(JSON.parse(body.toString('utf8')) as ChatCompletion, context);
      store(response);
      return { headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(response)) };
    },
    event: (data) => {
      const text = writer.payload(data);
      if (writer.result && text !== '') store(writer.result);
      return text;
    },
  };
}
