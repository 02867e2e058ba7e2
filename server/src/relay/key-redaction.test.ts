import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import {
  anthropicFront,
  chatFront,
  geminiFront,
  responsesFront,
  type Front,
  type FrontRequest,
} from '../../test/agent-matrix/fronts.js';
import { createChannel, createToken, createUser, setOption, settled } from '../../test/relay-fixtures.js';
import { startedForSuite } from '../../test/suite-lifecycle.js';
import { startTestServer } from '../../test/test-server.js';

type Json = Record<string, unknown>;

/**
 * Issue 32, point 4: no byte any client receives holds a channel's key. Each channel family's upstream echoes
 * its key in every error shape it has (an HTTP status error, and inside a stream it answered 200: its vendor's
 * error event, the key cut between two writes), on every front (chat, Responses over HTTP and WebSocket,
 * Anthropic messages, Gemini), plain and streamed; the key must be absent whole and in base64, and the call's
 * money and logs must stay right (a failed call refunded, a broken stream charged as its consume log says).
 * The keys look like nothing the generic patterns (`sk-…`, `AIza…`) catch, so only the channel's own
 * redaction can take them out.
 */

interface Family {
  name: string;
  type: number;
  key: string;
  /** The vendor's model every front's model maps to. */
  model: string;
  /** What the upstream sends for a call on `path`: a status error, or a 200 stream ending in its error event. */
  answer(path: string, mode: Mode, key: string): Answer;
}

type Mode = 'status' | 'event';
interface Answer {
  status: number;
  contentType: string;
  /** Written one after the other, a few ms apart: an event mode's key is cut between the two. */
  pieces: string[];
}

/** The texts an upstream echoes a key in: its message, and its param / code fields where it has them. */
const echo = (key: string) => `Incorrect API key provided: ${key} (header x-api-key=${key})`;

/** A 200 stream whose body is cut in the middle of the key's first occurrence. */
function streamCut(body: string, key: string, contentType = 'text/event-stream'): Answer {
  const middle = body.indexOf(key) + Math.floor(key.length / 2);
  return { status: 200, contentType, pieces: [body.slice(0, middle), body.slice(middle)] };
}

const sse = (events: Json[]) => events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('');
const namedSse = (events: Json[]) =>
  events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`).join('');

/** OpenAI chat (OpenAI, resellers, Zhipu v4): a delta, then `data: {"error": …}` as OpenAI sends mid-stream. */
function chatAnswer(mode: Mode, key: string, model: string): Answer {
  const error = { error: { message: echo(key), type: 'server_error', param: key, code: key } };
  if (mode === 'status') return { status: 401, contentType: 'application/json', pieces: [JSON.stringify(error)] };
  const chunk = {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model,
    choices: [{ index: 0, delta: { role: 'assistant', content: 'Hello' }, finish_reason: null }],
  };
  return streamCut(sse([chunk, error]), key);
}

/** OpenAI's Responses stream: a delta, its `error` event, then `response.failed` carrying the error too. */
function responsesAnswer(mode: Mode, key: string, model: string): Answer {
  const failure = { code: 'server_error', message: echo(key) };
  if (mode === 'status')
    return {
      status: 401,
      contentType: 'application/json',
      pieces: [JSON.stringify({ error: { ...failure, type: 'invalid_request_error', param: key } })],
    };
  const response = { id: 'resp_1', object: 'response', created_at: 1, model, status: 'in_progress', output: [] };
  return streamCut(
    namedSse([
      { type: 'response.created', sequence_number: 0, response },
      {
        type: 'response.output_text.delta',
        sequence_number: 1,
        item_id: 'msg_1',
        output_index: 0,
        content_index: 0,
        delta: 'Hello',
      },
      { type: 'error', sequence_number: 2, ...failure, param: key },
      { type: 'response.failed', sequence_number: 3, response: { ...response, status: 'failed', error: failure } },
    ]),
    key,
  );
}

const families: Family[] = [
  {
    name: 'OpenAI',
    type: 1,
    key: 'mgk-openai-7f3a9c21b4d8e6f0',
    model: 'gpt-5',
    answer: (path, mode, key) =>
      path === '/v1/responses' ? responsesAnswer(mode, key, 'gpt-5') : chatAnswer(mode, key, 'gpt-5'),
  },
  {
    // A reseller without /v1/responses: its 404 sends the Responses front to chat, converted.
    name: 'OpenAI-compatible',
    type: 1,
    key: 'mgk-reseller-81d0c3aa5e92b7c4',
    model: 'deepseek-chat',
    answer: (path, mode, key) =>
      path === '/v1/responses'
        ? { status: 404, contentType: 'application/json', pieces: ['{"error":{"message":"Invalid URL"}}'] }
        : chatAnswer(mode, key, 'deepseek-chat'),
  },
  {
    name: 'Anthropic',
    type: 14,
    key: 'mgk-claude-0b6e93d1f4a27c58',
    model: 'claude-sonnet-4-5',
    answer(_path, mode, key) {
      const error = { type: 'error', error: { type: 'authentication_error', message: echo(key) } };
      if (mode === 'status') return { status: 401, contentType: 'application/json', pieces: [JSON.stringify(error)] };
      const message = {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 25, output_tokens: 1 },
      };
      return streamCut(
        namedSse([
          { type: 'message_start', message },
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello' } },
          { ...error, error: { type: 'overloaded_error', message: echo(key) } },
        ]),
        key,
      );
    },
  },
  {
    name: 'Gemini',
    type: 24,
    key: 'mgk-gemini-5c2f8e07ab19d364',
    model: 'gemini-2.5-flash',
    answer(_path, mode, key) {
      const error = { error: { code: 400, message: echo(key), status: 'INVALID_ARGUMENT' } };
      if (mode === 'status') return { status: 400, contentType: 'application/json', pieces: [JSON.stringify(error)] };
      const chunk = {
        candidates: [{ content: { role: 'model', parts: [{ text: 'Hello' }] }, index: 0 }],
        usageMetadata: { promptTokenCount: 25, totalTokenCount: 25 },
        modelVersion: 'gemini-2.5-flash',
      };
      return streamCut(
        [chunk, { error: { ...error.error, code: 500, status: 'INTERNAL' } }]
          .map((event) => `data: ${JSON.stringify(event)}\r\n\r\n`)
          .join(''),
        key,
      );
    },
  },
  {
    // Zhipu's key is `id.secret`; it signs a JWT with it, and its errors are OpenAI-shaped with its own codes.
    name: 'Zhipu',
    type: 16,
    key: 'mgkzhipuid4e1b.zhipusecret9a73c0d5e2',
    model: 'glm-4.6',
    answer(_path, mode, key) {
      if (mode === 'event') return chatAnswer(mode, key, 'glm-4.6');
      const error = { error: { code: '1000', message: echo(key) } };
      return { status: 401, contentType: 'application/json', pieces: [JSON.stringify(error)] };
    },
  },
];

/** A loopback vendor answering every call as `family.answer` says for the current mode. */
async function startVendor(family: Family, mode: () => Mode) {
  const write = async (response: ServerResponse, answer: Answer) => {
    response.writeHead(answer.status, { 'content-type': answer.contentType });
    for (const piece of answer.pieces) {
      response.write(piece);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    response.end();
  };
  let calls = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      calls++;
      const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
      void write(response, family.answer(path, mode(), family.key));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls: () => calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Every byte a client got: status line's code, headers and body (a stream's whole body). */
async function sendHttp(url: string, key: string, front: Front, request: FrontRequest) {
  const auth: Record<string, string> =
    front === anthropicFront ? { 'x-api-key': key } : front === geminiFront ? { 'x-goog-api-key': key } : {};
  const response = await fetch(url + request.path, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...request.headers,
      ...(Object.keys(auth).length ? auth : { authorization: `Bearer ${key}` }),
    },
    body: JSON.stringify(request.body),
  });
  const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
  return { status: response.status, bytes: `${headers}\n\n${await response.text()}` };
}

/** A Responses turn over WebSocket (Codex's provider): every frame until the turn ends or the socket closes. */
function sendWebSocket(url: string, key: string, request: FrontRequest) {
  return new Promise<{ status: number; bytes: string }>((resolve, reject) => {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/responses`, {
      headers: { authorization: `Bearer ${key}`, 'openai-beta': 'responses_websockets=2026-02-06' },
    });
    const frames: string[] = [];
    const done = () => resolve({ status: 200, bytes: frames.join('\n') });
    socket.on('unexpected-response', (_request, response) => {
      resolve({ status: response.statusCode ?? 0, bytes: '' });
      socket.terminate();
    });
    socket.on('error', reject);
    socket.on('open', () => {
      const body: Json = { ...request.body };
      delete body.stream;
      socket.send(JSON.stringify({ type: 'response.create', ...body }));
    });
    socket.on('message', (data) => {
      const text = String(data);
      frames.push(text);
      const type = (JSON.parse(text) as Json).type;
      if (typeof type === 'string' && /^(response\.(completed|failed|incomplete)|error)$/.test(type)) {
        socket.close();
        done();
      }
    });
    socket.on('close', done);
  });
}

/** The bytes around a leaked secret, for the failure message. */
const around = (bytes: string, secret: string) =>
  bytes.slice(Math.max(0, bytes.indexOf(secret) - 400), bytes.indexOf(secret) + secret.length + 100);

const fronts = [
  { name: 'chat', front: chatFront, websocket: false },
  { name: 'Responses HTTP', front: responsesFront, websocket: false },
  { name: 'Responses WebSocket', front: responsesFront, websocket: true },
  { name: 'Anthropic messages', front: anthropicFront, websocket: false },
  { name: 'Gemini', front: geminiFront, websocket: false },
];

describe('issue 32 point 4: no channel key reaches a client, whatever error shape echoes it', () => {
  let mode: Mode = 'status';
  const gateway = startedForSuite(async () => {
    const server = await startTestServer();
    const vendors = await Promise.all(families.map((family) => startVendor(family, () => mode)));
    const models = [...new Set([...fronts.map(({ front }) => front.model), ...families.map((family) => family.model)])];
    await setOption(server, 'ModelRatio', JSON.stringify(Object.fromEntries(models.map((model) => [model, 1]))));
    const accounts = new Map<string, { token: string; userId: number; vendor: (typeof vendors)[number] }>();
    for (const [index, family] of families.entries()) {
      const group = `redaction-${index}`;
      await createChannel(server, {
        type: family.type,
        key: family.key,
        name: family.name,
        group,
        base_url: vendors[index]!.url,
        models: fronts.map(({ front }) => front.model).join(','),
        model_mapping: JSON.stringify(Object.fromEntries(fronts.map(({ front }) => [front.model, family.model]))),
      });
      const userId = await createUser(server, { username: group, group, quota: 1e9 });
      const token = await createToken(server, userId);
      accounts.set(family.name, { token: `sk-${token.key}`, userId, vendor: vendors[index]! });
    }
    return {
      server,
      accounts,
      async close() {
        await server.close();
        await Promise.all(vendors.map((vendor) => vendor.close()));
      },
    };
  });

  /** The user's quota, and the logs written since `afterId` (once the answered calls' charges are written). */
  async function ledger(userId: number, afterId: number) {
    await settled(gateway.server);
    const { quota } = await gateway.server.context.database.db
      .selectFrom('users')
      .select('quota')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    const logs = await gateway.server.context.logDatabase.db
      .selectFrom('logs')
      .select(['id', 'type', 'quota', 'content'])
      .where('id', '>', afterId)
      .orderBy('id')
      .execute();
    return { quota: Number(quota), logs };
  }

  const cells = fronts.flatMap(({ name, front, websocket }) =>
    (websocket ? [true] : [false, true]).flatMap((stream) =>
      (stream ? (['status', 'event'] as const) : (['status'] as const)).map((shape) => ({
        name,
        front,
        websocket,
        stream,
        shape,
      })),
    ),
  );

  for (const family of families)
    describe(family.name, () => {
      for (const cell of cells)
        test(`${cell.name} × ${cell.stream ? 'stream' : 'plain'} × ${cell.shape === 'status' ? 'a status error' : "the vendor's in-stream error event, key cut in two"}`, async () => {
          const { token, userId, vendor } = gateway.accounts.get(family.name)!;
          mode = cell.shape;
          const before = await ledger(userId, 0);
          const lastLog = before.logs.at(-1)?.id ?? 0;
          const callsBefore = vendor.calls();
          const request = cell.front.request(cell.stream ? 'stream' : 'plain');
          const { status, bytes } = cell.websocket
            ? await sendWebSocket(gateway.server.url, token, request)
            : await sendHttp(gateway.server.url, token, cell.front, request);

          // The upstream was reached and did echo the key (the vendor answers nothing else).
          expect(vendor.calls()).toBeGreaterThan(callsBefore);
          for (const secret of [family.key, ...family.key.split('.').filter((part) => part.length >= 6)]) {
            expect(bytes, around(bytes, secret)).not.toContain(secret);
            expect(bytes).not.toContain(Buffer.from(secret).toString('base64'));
            expect(bytes).not.toContain(Buffer.from(secret).toString('base64url'));
          }
          // The client was told something failed, in its dialect.
          if (cell.shape === 'status' && !cell.websocket) expect(status).toBeGreaterThanOrEqual(400);
          else expect(bytes).toMatch(/error|failed/i);

          const after = await ledger(userId, lastLog);
          for (const log of after.logs) expect(log.content).not.toContain(family.key);
          const consumed = after.logs.filter((log) => log.type === 2);
          const spent = before.quota - after.quota;
          if (cell.shape === 'status') {
            // Nothing was generated: the hold is refunded and no consume log is written.
            expect(consumed).toEqual([]);
            expect(spent).toBe(0);
          } else {
            // A stream that broke off after its first words is charged, once, as its consume log says.
            expect(consumed).toHaveLength(1);
            expect(Number(consumed[0]!.quota)).toBeGreaterThan(0);
            expect(spent).toBe(Number(consumed[0]!.quota));
          }
        });
    });
});
