import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { mockResponse, type MockAnswer, type MockOutputItem } from './openai-responses.js';

type Json = Record<string, unknown>;

/**
 * The usage one case reports, in the wire form of each protocol its upstream speaks (as the vendor's
 * documentation shows it): an OpenAI-protocol channel answers chat completions and Responses, a Claude channel
 * Messages, a Gemini channel generateContent.
 */
export interface CaseUsages {
  /** A chat completion's `usage` (OpenAI, DeepSeek). */
  chat?: Json;
  /** A Responses answer's usage, and its web_search_call items. */
  responses?: MockAnswer['usage'] & { searches?: number };
  /** A Messages answer's `usage`; in a stream, message_delta's (cumulative). */
  messages?: Json;
  /** A stream's message_start usage when it is not the final input with one output token (server tools). */
  messagesStart?: Json;
  /** generateContent's `usageMetadata`; in a stream, the last event's. */
  gemini?: Json;
}

/**
 * How an answer ends, named in the request's text as `case=<name>;end=<ending>`:
 * - `done`: whole, or a complete stream;
 * - `cut`: the stream's connection fails right after the event that reports the final usage (before [DONE],
 *   message_stop, or Gemini's end of stream);
 * - `cut-early`: the connection fails after the text but before the final usage (after message_start and the
 *   text for Claude, after the first event for Gemini, whose usage has the prompt only);
 * - `incomplete`: a Responses answer that ends `incomplete` (max_output_tokens), whole or streamed.
 */
export type Ending = 'done' | 'cut' | 'cut-early' | 'incomplete';

/** The answer's text, in the pieces it is streamed in. */
export const answerPieces = ['The renewal clause ', 'requires 90 days', "' notice."];

export interface PricedVendors {
  url: string;
  /** Registers a case's usages under a name the requests give. */
  define(name: string, usages: CaseUsages): void;
  close(): Promise<void>;
}

/** An answer: a whole JSON body, or a stream's events (the first `failAfter` of them, then a break-off). */
type Answer = { json: unknown } | { events: string[]; failAfter?: number };

const sse = (event: string | null, data: unknown) =>
  `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

/** Writes the events (the first `failAfter` of them when set, then the connection fails), else ends the stream. */
async function writeEvents(response: ServerResponse, events: string[], failAfter?: number): Promise<void> {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const event of events.slice(0, failAfter)) {
    response.write(event);
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (failAfter === undefined) return void response.end();
  // Let the relay read what was written before the connection fails.
  await new Promise((resolve) => setTimeout(resolve, 20));
  response.destroy();
}

function chatAnswer(model: string, usage: Json | undefined, stream: boolean, ending: Ending): Answer {
  const text = answerPieces.join('');
  if (!stream)
    return {
      json: {
        id: 'chatcmpl-matrix',
        object: 'chat.completion',
        created: 1_750_000_000,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        usage,
      },
    };
  const chunk = (choices: unknown[], extra: Json = {}) =>
    sse(null, {
      id: 'chatcmpl-matrix',
      object: 'chat.completion.chunk',
      created: 1_750_000_000,
      model,
      choices,
      ...extra,
    });
  const events = [
    chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]),
    ...answerPieces.map((piece) => chunk([{ index: 0, delta: { content: piece }, finish_reason: null }])),
    chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]),
    chunk([], { usage }),
    sse(null, '[DONE]'),
  ];
  return { events, failAfter: ending === 'cut' ? events.length - 1 : undefined };
}

function messagesAnswer(model: string, usages: CaseUsages, stream: boolean, ending: Ending): Answer {
  const usage = usages.messages ?? {};
  const message = { id: 'msg_matrix', type: 'message', role: 'assistant', model };
  if (!stream)
    return {
      json: {
        ...message,
        content: [{ type: 'text', text: answerPieces.join('') }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage,
      },
    };
  // https://docs.claude.com/en/docs/build-with-claude/streaming: message_start has the input and one output
  // token; message_delta's counts are cumulative.
  const { server_tool_use: _searches, ...startUsage } = usage;
  const start = usages.messagesStart ?? { ...startUsage, output_tokens: 1 };
  const { cache_creation: _split, ...deltaUsage } = usage;
  const events = [
    sse('message_start', {
      type: 'message_start',
      message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage: start },
    }),
    sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    ...answerPieces.map((text) =>
      sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }),
    ),
    sse('content_block_stop', { type: 'content_block_stop', index: 0 }),
    sse('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: deltaUsage,
    }),
    sse('message_stop', { type: 'message_stop' }),
  ];
  const failAfter = ending === 'cut' ? events.length - 1 : ending === 'cut-early' ? events.length - 2 : undefined;
  return { events, failAfter };
}

function geminiAnswer(model: string, usage: Json | undefined, stream: boolean, ending: Ending): Answer {
  const candidate = (text: string, finished: boolean) => ({
    content: { parts: [{ text }], role: 'model' },
    ...(finished ? { finishReason: 'STOP' } : {}),
    index: 0,
  });
  if (!stream)
    return {
      json: { candidates: [candidate(answerPieces.join(''), true)], usageMetadata: usage, modelVersion: model },
    };
  // As Google streams: every event carries the usage so far; the first only the prompt's counts.
  const { candidatesTokenCount: _output, candidatesTokensDetails: _details, ...promptOnly } = usage ?? {};
  const firstUsage = { ...promptOnly, totalTokenCount: Number(promptOnly.promptTokenCount ?? 0) };
  const events = [
    sse(null, { candidates: [candidate(answerPieces[0]!, false)], usageMetadata: firstUsage, modelVersion: model }),
    sse(null, {
      candidates: [candidate(answerPieces.slice(1).join(''), true)],
      usageMetadata: usage,
      modelVersion: model,
    }),
  ];
  // `cut`: the connection fails where Google would end the stream, after the final usage.
  return { events, failAfter: ending === 'cut' ? events.length : ending === 'cut-early' ? 1 : undefined };
}

function responsesAnswer(body: Json, usage: CaseUsages['responses'], stream: boolean, ending: Ending): Answer {
  const { searches = 0, ...counts } = usage ?? { input: 0, output: 0 };
  const output: MockOutputItem[] = [
    ...Array.from({ length: searches }, (): MockOutputItem => ({ type: 'web_search_call', query: 'renewal clause' })),
    { type: 'message', text: answerPieces.join('') },
  ];
  const answer = mockResponse(body, {
    output,
    usage: counts,
    status: ending === 'incomplete' ? 'incomplete' : undefined,
  });
  if (!stream) return { json: answer.response };
  return { events: answer.events.map((event) => sse(String(event.type), event)) };
}

/**
 * One loopback upstream for the price matrix that speaks OpenAI's chat completions and Responses (OpenAI,
 * DeepSeek), Anthropic's Messages and Gemini's generateContent and streamGenerateContent (SSE). Each request
 * names its case and ending in its text (`case=<name>;end=<ending>`), so it may come converted through any
 * front; the answer reports that case's usage as the vendor does, whole or streamed, and a stream may break off
 * (the socket destroyed) after or before its final usage.
 */
export async function startPricedVendors(): Promise<PricedVendors> {
  const cases = new Map<string, CaseUsages>();
  const sockets = new Set<Socket>();
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const parts: Buffer[] = [];
    for await (const part of request) parts.push(part as Buffer);
    const text = Buffer.concat(parts).toString('utf8');
    const body = JSON.parse(text || '{}') as Json;
    const marker = /case=([\w-]+);end=([\w-]+)/.exec(text);
    const usages = marker ? cases.get(marker[1]!) : undefined;
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const authorized = Boolean(
      request.headers.authorization || request.headers['x-api-key'] || request.headers['x-goog-api-key'],
    );
    if (!usages || !authorized || request.method !== 'POST') {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: `no case, key or POST (${path})`, type: 'invalid_request' } }));
      return;
    }
    const ending = marker![2] as Ending;
    const gemini = /\/models\/([^/:]+):(generateContent|streamGenerateContent)$/.exec(path);
    const model = String(body.model ?? gemini?.[1] ?? '');
    const stream = body.stream === true || gemini?.[2] === 'streamGenerateContent';
    const answer = path.endsWith('/chat/completions')
      ? chatAnswer(model, usages.chat, stream, ending)
      : path.endsWith('/v1/messages')
        ? messagesAnswer(model, usages, stream, ending)
        : path.endsWith('/responses')
          ? responsesAnswer(body, usages.responses, stream, ending)
          : gemini
            ? geminiAnswer(model, usages.gemini, stream, ending)
            : undefined;
    if (!answer) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: `unknown path ${path}` } }));
      return;
    }
    if ('json' in answer) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer.json));
      return;
    }
    await writeEvents(response, answer.events, answer.failAfter);
  };
  const server = createServer((request, response) => {
    handle(request, response).catch(() => response.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    define: (name, usages) => void cases.set(name, usages),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
