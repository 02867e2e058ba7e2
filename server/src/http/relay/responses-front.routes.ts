import type { AppContext } from '../../context.js';
import {
  conversationAfterOrThrow,
  deleteResponseOfUser,
  findOutputItemOfUser,
  findResponseOfUser,
  inputItemsPage,
  saveResponse,
  type JsonObject,
  type StoredResponse,
} from '../../domain/response/response.repository.js';
import { responseNotFound } from '../../domain/response/response.errors.js';
import { nowSeconds } from '../../lib/time.js';
import type { ResponsesOriginal } from '../../relay/adaptors/openai/responses-original.js';
import { channelServesResponses } from '../../relay/adaptors/openai/responses-pass-through.js';
import type { ChatCompletion } from '../../relay/adaptors/openai-kit/chat-types.js';
import { isObject, tryParseObject } from '../../relay/adaptors/openai-kit/json.js';
import { assertModelAllowed } from '../../relay/auth/token-auth.js';
import { droppedHeaders, sentWholeTo } from '../../relay/fronts/dropped-header.js';
import { connectionConversation } from '../../relay/fronts/responses/connection-conversation.js';
import { ResponsesRequestError } from '../../relay/fronts/responses/errors.js';
import { resolveItemReferences } from '../../relay/fronts/responses/item-references.js';
import { nativeResponsesRequest } from '../../relay/fronts/responses/native-request.js';
import { NativeEventRelay, ownResponse } from '../../relay/fronts/responses/native-stream.js';
import {
  inputItemsOf,
  responsesToChatRequest,
  type ConvertedResponsesRequest,
} from '../../relay/fronts/responses/request.js';
import {
  chatCompletionToResponse,
  inputItemWithId,
  responseId,
  type ResponseContext,
} from '../../relay/fronts/responses/response.js';
import { ResponsesEventWriter } from '../../relay/fronts/responses/stream.js';
import type { ResponsesInputItem, ResponsesRequest, ResponsesResponse } from '../../relay/fronts/responses/types.js';
import type { ChannelLimit, FrontOutput } from '../../relay/pipeline/relay-job.js';
import { relayText } from '../../relay/pipeline/text-relay.js';
import type { RelayRuntime } from '../../relay/runtime.js';
import { frontRelayJob, parseJsonBody } from './front-job.js';
import { openAIErrorAnswer, type ErrorAnswer } from './openai-error.js';
import type { RelayEndpoint, RelayRoute } from './relay-entry.js';
import { sendJson } from './relay-entry.js';
import { responsesBodyProblem, responsesCreateBody, responsesCreatePasses } from './responses-front.schema.js';

const bodyLimitBytes = 32 * 1024 * 1024;
/** Output item ids remembered per node for `item_reference` (some 100 bytes each). */
const maxRecentItems = 20_000;

/** OpenAI's error object, with the offending field in `param` when the request could not be converted. */
const responsesErrorAnswer: ErrorAnswer = (error, requestId, acceptLanguage, logUnexpected) => {
  const answer = openAIErrorAnswer(error, requestId, acceptLanguage, logUnexpected);
  if (error instanceof ResponsesRequestError) answer.body.error.param = error.param;
  return answer;
};

export function parseCreateBody(raw: Buffer): ResponsesRequest {
  const parsed = parseJsonBody(raw);
  // The schema's copy is the body itself (no defaults, no transforms), so a body that certainly passes is used as is.
  const checked = responsesCreatePasses(parsed)
    ? { success: true as const, data: parsed as ResponsesRequest }
    : responsesCreateBody.safeParse(parsed);
  if (!checked.success) {
    const problem = responsesBodyProblem(checked.error);
    throw new ResponsesRequestError(problem.param, problem.detail);
  }
  // A background response outlives its request: it would need a worker that runs it, keeps its events for
  // clients that come back, and lets `cancel` stop it. The gateway answers in the request only.
  if (checked.data.background === true)
    throw new ResponsesRequestError('background', 'background responses are not supported by this gateway');
  return checked.data as ResponsesRequest;
}

/**
 * The chat request the relay runs and what it leaves out. A request the conversion refuses (an input only
 * OpenAI reads: a file by id, a computer call …) can still go to a channel that takes Responses natively: it
 * is limited to those, and refused with the conversion's reason when the model has none.
 */
function chatJobOf(
  body: ResponsesRequest,
  items: ResponsesInputItem[],
): ConvertedResponsesRequest & { channelLimit?: ChannelLimit } {
  try {
    return responsesToChatRequest(body, items);
  } catch (error) {
    if (!(error instanceof ResponsesRequestError)) throw error;
    const refusal = error;
    return {
      chat: { model: body.model, messages: [], ...(body.stream ? { stream: true } : {}) },
      dropped: [],
      channelLimit: {
        only: {
          accepts: (channel) =>
            channelServesResponses(channel.adaptor, channel.settings, channel.mapping[body.model] ?? body.model),
          refusal: () => refusal,
        },
      },
    };
  }
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
 * OpenAI's Responses API in front of every channel (beyond one-api): `POST /v1/responses` is relayed as a chat
 * call (routing, billing, retries), with the stored conversation of `previous_response_id` before its input.
 * Channels that speak the Responses API (OpenAI, Azure, OpenAI-protocol channels marked so) get the request
 * natively and their answer or events go back as they came; the others get it converted to chat, its answer
 * or stream converted back, and what they cannot take named in `x-modelgate-dropped`. Responses are stored
 * unless `store` is false, readable, listable and deletable by their owner until they expire; `background`
 * responses are not run, so none can be cancelled.
 */
export function responsesFrontRoutes(context: AppContext, runtime: RelayRuntime): RelayRoute[] {
  const db = context.database.db;
  // Responses are written after their answer went out; a client continuing one at once (a tool loop) must
  // still find it, so reads of an id wait for its write on this node first.
  const saving = new Map<string, Promise<void>>();
  const saved = (id: string | null | undefined) => (id ? saving.get(id) : undefined);
  // The response holding each recent output item, so that an `item_reference` to it (the AI SDK's next step)
  // is found without a search: bounded, the oldest forgotten first (a miss only costs the search).
  const recentItems = new Map<string, string>();
  const rememberItems = (response: ResponsesResponse) => {
    for (const item of response.output) {
      if (typeof item.id !== 'string') continue;
      recentItems.delete(item.id);
      recentItems.set(item.id, response.id);
      if (recentItems.size > maxRecentItems) recentItems.delete(recentItems.keys().next().value!);
    }
  };
  const endpoint = (handle: RelayEndpoint['handle']): RelayEndpoint => ({
    bodyLimitBytes,
    handle,
    errorAnswer: responsesErrorAnswer,
  });

  const create = endpoint(async ({ principal, body: raw, reply, requestId, request }) => {
    const body = parseCreateBody(raw);
    // A turn on a WebSocket connection continues that connection's latest response even when it was not stored.
    const connection = connectionConversation(request);
    const now = nowSeconds();
    const { items: input, referenced } = await resolveItemReferences(inputItemsOf(body.input), async (itemId) => {
      const hint = recentItems.get(itemId);
      await saved(hint);
      return (await findOutputItemOfUser(db, principal.user.id, itemId, now, hint)) as ResponsesInputItem | undefined;
    });
    await saved(body.previous_response_id);
    const items = body.previous_response_id
      ? (connection?.after(body.previous_response_id, input) ??
        (await conversationAfterOrThrow(db, principal.user.id, body.previous_response_id, input, now)))
      : input;
    const { chat, dropped, channelLimit } = chatJobOf(body, items);
    assertModelAllowed(principal.token, chat.model);
    const original: ResponsesOriginal = {
      request: nativeResponsesRequest(body, items.slice(0, items.length - input.length), input, referenced),
      messages: chat.messages,
    };
    const responseContext: ResponseContext = { id: responseId(), createdAt: now, request: body };
    // A failed write costs the client only its previous_response_id.
    const store = (response: ResponsesResponse) => {
      connection?.remember(response.id, items, response.output);
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
      rememberItems(response);
    };
    const job = frontRelayJob(context, runtime, { principal, requestId, reply }, chat, {
      native: { protocol: 'responses', original },
      front: {
        ...responsesOutput(responseContext, store),
        answerHeaders: droppedHeaders(dropped, sentWholeTo(original), chat),
      },
      channelLimit,
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
  // Only background responses can be cancelled, and the gateway runs none (see parseCreateBody): a stored
  // response is answered as OpenAI answers for one created without `background`, an unknown id as GET does.
  const cancel = endpoint(async ({ principal, params, reply }) => {
    await storedOrThrow(principal.user.id, params.id);
    sendJson(reply, 400, {
      error: {
        message: 'Only responses created with background=true can be cancelled.',
        type: 'invalid_request_error',
        param: null,
        code: null,
      },
    });
  });
  return [
    { method: 'POST', path: '/v1/responses', endpoint: create },
    { method: 'POST', path: '/v1/responses/:id/cancel', endpoint: cancel },
    { method: 'GET', path: '/v1/responses/:id', endpoint: read },
    { method: 'DELETE', path: '/v1/responses/:id', endpoint: remove },
    { method: 'GET', path: '/v1/responses/:id/input_items', endpoint: inputItems },
  ];
}

/**
 * The relay's output as a response object or the Responses event stream; `store` gets the result. A channel
 * that served the Responses request natively answers with a response object (sent on with the gateway's id)
 * or its own events (forwarded, NativeEventRelay); a chat answer is converted.
 */
function responsesOutput(context: ResponseContext, store: (response: ResponsesResponse) => void): FrontOutput {
  const converter = new ResponsesEventWriter(context);
  let native: NativeEventRelay | undefined;
  let stored = false;
  const storeOnce = (result: ResponsesResponse | undefined) => {
    if (!result || stored) return;
    stored = true;
    store(result);
  };
  /** The relay's end or error after a native stream that did not finish (the upstream broke off). */
  const nativeEnd = (relay: NativeEventRelay, data: string): string => {
    const relayError = data === '[DONE]' ? undefined : tryParseObject(data)?.error;
    const message = isObject(relayError) && typeof relayError.message === 'string' ? relayError.message : undefined;
    return relay.fail(message ?? "the upstream's stream ended before the response was finished");
  };
  return {
    whole: (body) => {
      const answer = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      const response =
        answer.object === 'response'
          ? ownResponse(answer, context)
          : chatCompletionToResponse(answer as unknown as ChatCompletion, context);
      storeOnce(response);
      return { headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(response)) };
    },
    event: (data) => {
      if (native) return nativeEnd(native, data);
      const text = converter.payload(data);
      storeOnce(converter.result);
      return text;
    },
    nativeStream: () => (native = new NativeEventRelay(context, storeOnce)),
  };
}
