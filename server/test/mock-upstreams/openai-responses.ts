import { type MockUpstream, type RecordedRequest, startMockUpstream } from './mock-kit.js';

export const openAIResponsesMockKey = 'sk-openai-responses-mock';

type Json = Record<string, unknown>;

/** One output item of a mocked answer, in the fields that decide its events. */
export type MockOutputItem =
  | { type: 'message'; text: string }
  | { type: 'function_call'; name: string; arguments: string; callId?: string }
  | { type: 'reasoning'; summary: string; encryptedContent?: string }
  | { type: 'web_search_call'; query: string };

/** What the mock answers one Responses request with: its output, how it ended and the usage it reports. */
export interface MockAnswer {
  output: MockOutputItem[];
  status?: 'completed' | 'incomplete' | 'failed';
  usage: { input: number; output: number; cached?: number; reasoning?: number };
  /** For a failed answer (OpenAI's default: server_error). */
  error?: { code: string; message: string };
  /** The stream stops after this many events, without its final one (the connection closes). */
  cutAfterEvents?: number;
}

/** A Responses request's answer: made from the body, or a recorded SSE stream replayed as it is. */
export type MockAnswerer = (body: Json, request: RecordedRequest) => MockAnswer | { recordedStream: string };

let itemCounter = 0;
const newId = (prefix: string) => `${prefix}_mock${(++itemCounter).toString(16).padStart(8, '0')}`;

/** Splits text into about three deltas, as a model streams it. */
function pieces(text: string): string[] {
  const size = Math.max(1, Math.ceil(text.length / 3));
  const parts: string[] = [];
  for (let start = 0; start < text.length; start += size) parts.push(text.slice(start, start + size));
  return parts.length > 0 ? parts : [''];
}

/** The final form of one output item, with OpenAI's ids and fields. */
function finishedItem(item: MockOutputItem, status: 'completed' | 'incomplete'): Json {
  switch (item.type) {
    case 'message':
      return {
        id: newId('msg'),
        type: 'message',
        status,
        content: [{ type: 'output_text', annotations: [], logprobs: [], text: item.text }],
        role: 'assistant',
      };
    case 'function_call':
      return {
        id: newId('fc'),
        type: 'function_call',
        status: 'completed',
        arguments: item.arguments,
        call_id: item.callId ?? newId('call'),
        name: item.name,
      };
    case 'reasoning':
      return {
        id: newId('rs'),
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: item.summary }],
        ...(item.encryptedContent ? { encrypted_content: item.encryptedContent } : {}),
      };
    case 'web_search_call':
      return {
        id: newId('ws'),
        type: 'web_search_call',
        status: 'completed',
        action: { type: 'search', query: item.query },
      };
  }
}

/** The events of one item between its output_item.added and output_item.done, as OpenAI streams them. */
function itemEvents(item: Json, outputIndex: number): Json[] {
  const where = { item_id: item.id, output_index: outputIndex };
  if (item.type === 'message') {
    const part = (item.content as Json[])[0]!;
    const text = String(part.text);
    const at = { ...where, content_index: 0 };
    return [
      { type: 'response.content_part.added', ...at, part: { ...part, text: '' } },
      ...pieces(text).map((delta) => ({ type: 'response.output_text.delta', ...at, delta, logprobs: [] })),
      { type: 'response.output_text.done', ...at, text, logprobs: [] },
      { type: 'response.content_part.done', ...at, part },
    ];
  }
  if (item.type === 'function_call')
    return [
      ...pieces(String(item.arguments)).map((delta) => ({
        type: 'response.function_call_arguments.delta',
        ...where,
        delta,
      })),
      { type: 'response.function_call_arguments.done', ...where, name: item.name, arguments: item.arguments },
    ];
  if (item.type === 'reasoning') {
    const part = (item.summary as Json[])[0]!;
    const at = { ...where, summary_index: 0 };
    return [
      { type: 'response.reasoning_summary_part.added', ...at, part: { type: 'summary_text', text: '' } },
      ...pieces(String(part.text)).map((delta) => ({ type: 'response.reasoning_summary_text.delta', ...at, delta })),
      { type: 'response.reasoning_summary_text.done', ...at, text: part.text },
      { type: 'response.reasoning_summary_part.done', ...at, part },
    ];
  }
  return ['in_progress', 'searching', 'completed'].map((stage) => ({
    type: `response.web_search_call.${stage}`,
    ...where,
  }));
}

/** How an item looks in its output_item.added event: in progress, nothing generated yet. */
function startedItem(item: Json): Json {
  if (item.type === 'message') return { ...item, status: 'in_progress', content: [] };
  if (item.type === 'function_call') return { ...item, status: 'in_progress', arguments: '' };
  if (item.type === 'reasoning') {
    const { encrypted_content: _hidden, ...rest } = item;
    return { ...rest, summary: [] };
  }
  const { action: _action, ...rest } = item;
  return { ...rest, status: 'in_progress' };
}

/** The response object OpenAI answers, echoing the request's settings. */
function responseObject(body: Json, status: string, output: Json[], usage: Json | null, extra: Json = {}): Json {
  return {
    id: extra.id,
    object: 'response',
    created_at: 1741476542,
    status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: `${String(body.model)}-2025-04-14`,
    output,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    service_tier: 'default',
    store: body.store !== false,
    temperature: 1.0,
    text: body.text ?? { format: { type: 'text' } },
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    top_p: 1.0,
    truncation: 'disabled',
    usage,
    user: null,
    metadata: body.metadata ?? {},
    ...extra,
  };
}

/** A mocked answer as OpenAI's final response object and its whole event sequence. */
export function mockResponse(body: Json, answer: MockAnswer): { response: Json; events: Json[] } {
  const status = answer.status ?? 'completed';
  const id = newId('resp');
  const items = answer.output.map((item) => finishedItem(item, status === 'incomplete' ? 'incomplete' : 'completed'));
  const { input, output, cached = 0, reasoning = 0 } = answer.usage;
  const usage = {
    input_tokens: input,
    input_tokens_details: { cached_tokens: cached },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: reasoning },
    total_tokens: input + output,
  };
  const ending: Json = { id };
  if (status === 'incomplete') ending.incomplete_details = { reason: 'max_output_tokens' };
  if (status === 'failed')
    ending.error = answer.error ?? { code: 'server_error', message: 'The model failed to generate a response.' };
  const response = responseObject(body, status, items, usage, ending);
  const started = responseObject(body, 'in_progress', [], null, { id });
  const events: Json[] = [
    { type: 'response.created', response: started },
    { type: 'response.in_progress', response: started },
    ...items.flatMap((item, index) => [
      { type: 'response.output_item.added', output_index: index, item: startedItem(item) },
      ...itemEvents(item, index),
      { type: 'response.output_item.done', output_index: index, item },
    ]),
    { type: `response.${status}`, response },
  ];
  return { response, events: events.map((event, index) => ({ ...event, sequence_number: index })) };
}

const sse = (events: Json[]) =>
  events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`).join('');

const invalid = (message: string, param: string | null = null) => ({
  error: { message, type: 'invalid_request_error', param, code: null },
});

/**
 * A loopback OpenAI Responses API (`POST /v1/responses`, and Azure's `/openai/v1/responses` with `api-key`)
 * that checks what the real one checks of a gateway's calls and answers whole or with the real event sequence
 * (response.created, in_progress, each item's added, deltas, done, then completed, incomplete or failed). It
 * stores nothing, as OpenAI with `store: false`: a previous_response_id, or a reasoning item without its
 * encrypted content, is refused as OpenAI refuses it.
 */
export async function startOpenAIResponsesMock(
  answerer: MockAnswerer,
): Promise<MockUpstream & { sentEvents: Json[][] }> {
  /** The events of each streamed answer, in order, as sent. */
  const sentEvents: Json[][] = [];
  const upstream = await startMockUpstream(async (request, reply) => {
    const azure = request.path === '/openai/v1/responses';
    if (request.method !== 'POST' || (request.path !== '/v1/responses' && !azure))
      return reply.json(404, invalid(`Invalid URL (${request.method} ${request.path})`));
    const authorized = azure
      ? request.headers['api-key'] === openAIResponsesMockKey
      : request.headers.authorization === `Bearer ${openAIResponsesMockKey}`;
    if (!authorized) return reply.json(401, invalid('Incorrect API key provided.'));
    const body = request.json;
    if (!body || typeof body.model !== 'string')
      return reply.json(400, invalid("Missing required parameter: 'model'.", 'model'));
    if (typeof body.previous_response_id === 'string')
      return reply.json(
        400,
        invalid(`Previous response with id '${body.previous_response_id}' not found.`, 'previous_response_id'),
      );
    const items = Array.isArray(body.input) ? (body.input as Json[]) : [];
    const unreadable = items.find((item) => item.type === 'reasoning' && typeof item.encrypted_content !== 'string');
    if (unreadable && body.store === false)
      return reply.json(
        404,
        invalid(
          `Item with id '${String(unreadable.id)}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
          'input',
        ),
      );
    const answer = answerer(body, request);
    if ('recordedStream' in answer) return reply.stream('text/event-stream', answer.recordedStream);
    const { response, events } = mockResponse(body, answer);
    if (body.stream !== true) return reply.json(200, response);
    const sent = answer.cutAfterEvents === undefined ? events : events.slice(0, answer.cutAfterEvents);
    sentEvents.push(sent);
    return reply.stream('text/event-stream', sse(sent));
  });
  return Object.assign(upstream, { sentEvents });
}
