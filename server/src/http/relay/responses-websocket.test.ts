import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { expectBilledExactly, startResponsesGateway, type ReportedUsage } from '../../../test/exact-billing.js';
import { startOpenAIResponsesMock, type MockAnswer } from '../../../test/mock-upstreams/openai-responses.js';
import { MockOpenAIUpstream } from '../../../test/mock-openai-upstream.js';
import { lastUserTurn, startScriptedClaude } from '../../../test/mock-upstreams/scripted-claude.js';
import { balances, createChannel, createToken, createUser } from '../../../test/relay-fixtures.js';
import { startedForSuite } from '../../../test/suite-lifecycle.js';
import { startTestServer } from '../../../test/test-server.js';

type Json = Record<string, unknown>;

const model = 'gpt-5-codex';
const completionRatio = 4;
const secretWord = 'periwinkle';
const finalTypes = new Set(['response.completed', 'response.incomplete', 'response.failed', 'error']);

const toolOutputOf = (body: Json) =>
  Array.isArray(body.input) ? (body.input as Json[]).find((item) => item.type === 'function_call_output') : undefined;

/** Both upstreams answer the same script: a greeting, a tool call for notes.txt, the name said earlier. */
async function startGateway() {
  const reported: ReportedUsage[] = [];
  const openai = await startOpenAIResponsesMock((body) => {
    const usage = { input: 900 + reported.length * 41, output: 30 + reported.length * 5 };
    reported.push({ prompt: usage.input, completion: usage.output });
    const input = JSON.stringify(body.input);
    let output: MockAnswer['output'] = [{ type: 'message', text: 'Hello from ModelGate.' }];
    if (toolOutputOf(body)) output = [{ type: 'message', text: `The secret word is ${secretWord}.` }];
    else if (input.includes('notes.txt'))
      output = [{ type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: 'cat notes.txt' }) }];
    else if (input.includes('What is my name?'))
      output = [{ type: 'message', text: input.includes('My name is Ada') ? 'Your name is Ada.' : 'I do not know.' }];
    return { output, usage };
  });
  const claude = await startScriptedClaude((body) => {
    const last = lastUserTurn(body);
    if (last.hasToolResult) return { text: `The secret word is ${secretWord}.` };
    if (last.text.includes('notes.txt')) return { toolUse: { name: 'exec_command', input: { cmd: 'cat notes.txt' } } };
    if (last.text.includes('What is my name?'))
      return {
        text: JSON.stringify(body.messages).includes('My name is Ada') ? 'Your name is Ada.' : 'I do not know.',
      };
    return { text: 'Hello from ModelGate.' };
  });
  const server = await startResponsesGateway(model, completionRatio, { openaiUrl: openai.url, claudeUrl: claude.url });
  return {
    server,
    openai,
    claude,
    reported,
    async close() {
      await server.close();
      await Promise.all([openai.close(), claude.close()]);
    },
  };
}

/** The headers Codex's built-in OpenAI provider opens the connection with (codex-rs, responses_websocket.rs). */
const codexHeaders = (key: string) => ({
  authorization: `Bearer ${key}`,
  'openai-beta': 'responses_websockets=2026-02-06',
  originator: 'codex_exec',
  session_id: randomUUID(),
  'user-agent': 'codex_exec/0.169.0',
});

/** A message Codex sends for a user turn: the Responses request's fields beside `type`, as it builds them. */
const turnOf = (text: string, fields: Json = {}): Json => ({
  type: 'response.create',
  model,
  instructions: 'You are a coding agent.',
  input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text }] }],
  tools: [],
  tool_choice: 'auto',
  parallel_tool_calls: false,
  store: false,
  stream: true,
  include: [],
  ...fields,
});

interface Connection {
  /** Sends one message and collects the events of its turn, up to its final one. */
  turn(message: Json): Promise<Json[]>;
  close(): void;
}

/** Opens `/v1/responses` over WebSocket as Codex does. */
async function connect(url: string, key: string): Promise<Connection> {
  const socket = new WebSocket(`${url.replace('http', 'ws')}/v1/responses`, { headers: codexHeaders(key) });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const received: Json[] = [];
  let waiting: (() => void) | undefined;
  socket.on('message', (data, binary) => {
    expect(binary, 'every event is a text message').toBe(false);
    received.push(JSON.parse(String(data)) as Json);
    waiting?.();
  });
  return {
    async turn(message) {
      received.length = 0;
      socket.send(JSON.stringify(message));
      while (!finalTypes.has(String(received.at(-1)?.type))) await new Promise<void>((resolve) => (waiting = resolve));
      return [...received];
    },
    close: () => socket.close(),
  };
}

/** The handshake's HTTP answer when it is refused. */
async function refusedHandshake(url: string, headers: Json): Promise<{ status: number; body: Json }> {
  const socket = new WebSocket(url.replace('http', 'ws'), { headers: headers as Record<string, string> });
  socket.on('error', () => {});
  return new Promise((resolve) =>
    socket.once('unexpected-response', (_request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += String(chunk)));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as Json }));
    }),
  );
}

const completedOf = (events: Json[]) => {
  const last = events.at(-1)!;
  expect(last.type, JSON.stringify(last)).toBe('response.completed');
  return last.response as { id: string; output: Json[]; store: boolean };
};
const textOf = (events: Json[]) =>
  events
    .filter((event) => event.type === 'response.output_text.delta')
    .map((event) => String(event.delta))
    .join('');

describe('the Responses API over WebSocket (Codex built-in provider)', () => {
  const gateway = startedForSuite(startGateway);

  describe.each([
    { group: 'openai', reported: () => gateway.reported },
    { group: 'claude', reported: () => gateway.claude.reported },
  ])('on an $group channel', ({ group, reported }) => {
    async function account(name: string) {
      const userId = await createUser(gateway.server, { username: `ws-${group}-${name}`, group, quota: 50_000_000 });
      const token = await createToken(gateway.server, userId);
      return { userId, tokenId: token.id, key: `sk-${token.key}` };
    }

    test('two turns on one connection stream the same events as SSE and are each billed', async () => {
      const user = await account('two');
      const connection = await connect(gateway.server.url, user.key);
      const [first, second] = await expectBilledExactly(gateway.server, user, reported(), completionRatio, async () => [
        await connection.turn(turnOf('Say hi.')),
        await connection.turn(turnOf('Say hi again.', { store: true })),
      ]);
      connection.close();
      for (const events of [first!, second!]) {
        expect(events.slice(0, 2).map((event) => event.type)).toEqual(['response.created', 'response.in_progress']);
        expect(textOf(events)).toBe('Hello from ModelGate.');
        expect(completedOf(events).output).toContainEqual(expect.objectContaining({ type: 'message' }));
        // Each message is the SSE event's JSON, its sequence numbers counting from 0.
        expect(events.map((event) => event.sequence_number)).toEqual(events.map((_event, index) => index));
      }
      expect(completedOf(first!).id).not.toBe(completedOf(second!).id);
      expect(completedOf(second!).store).toBe(true);
    });

    test('previous_response_id continues the connection with store:false and only the new items', async () => {
      const user = await account('continued');
      const connection = await connect(gateway.server.url, user.key);
      const events = await expectBilledExactly(gateway.server, user, reported(), completionRatio, async () => {
        const first = await connection.turn(turnOf('My name is Ada.'));
        const id = completedOf(first).id;
        return connection.turn(turnOf('What is my name?', { previous_response_id: id }));
      });
      expect(textOf(events)).toBe('Your name is Ada.');
      connection.close();
      // Nothing was stored: on another connection the id names nothing, as with OpenAI.
      const other = await connect(gateway.server.url, user.key);
      const [refused] = await other.turn(turnOf('What is my name?', { previous_response_id: completedOf(events).id }));
      other.close();
      expect(refused).toMatchObject({ type: 'error', status: 400, error: { code: 'previous_response_not_found' } });
    });

    test('a tool round: the call, then its output continuing the response', async () => {
      const user = await account('tool');
      const connection = await connect(gateway.server.url, user.key);
      const tools = [
        {
          type: 'function',
          name: 'exec_command',
          description: 'Runs a shell command.',
          parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] },
          strict: false,
        },
      ];
      const answer = await expectBilledExactly(gateway.server, user, reported(), completionRatio, async () => {
        const first = completedOf(await connection.turn(turnOf('Read notes.txt and tell me the word.', { tools })));
        const call = first.output.find((item) => item.type === 'function_call')!;
        expect(call).toMatchObject({ name: 'exec_command' });
        expect(JSON.parse(String(call.arguments))).toEqual({ cmd: 'cat notes.txt' });
        return connection.turn({
          ...turnOf('', { tools, previous_response_id: first.id }),
          input: [{ type: 'function_call_output', call_id: call.call_id, output: `the secret word is ${secretWord}` }],
        });
      });
      connection.close();
      expect(textOf(answer)).toBe(`The secret word is ${secretWord}.`);
    });

    test('a model no channel serves is an error event, and the connection goes on', async () => {
      const user = await account('unserved');
      const connection = await connect(gateway.server.url, user.key);
      const [refused] = await connection.turn(turnOf('Say hi.', { model: 'no-such-model' }));
      expect(refused).toMatchObject({ type: 'error', error: { message: expect.stringContaining('no-such-model') } });
      expect(refused!.status).toBeGreaterThanOrEqual(400);
      const events = await expectBilledExactly(gateway.server, user, reported(), completionRatio, () =>
        connection.turn(turnOf('Say hi.')),
      );
      connection.close();
      expect(textOf(events)).toBe('Hello from ModelGate.');
    });
  });

  test('a warm-up (generate: false) calls no model, costs nothing, and the next turn continues it', async () => {
    const userId = await createUser(gateway.server, { username: 'ws-warm', group: 'openai', quota: 50_000_000 });
    const token = await createToken(gateway.server, userId);
    const connection = await connect(gateway.server.url, `sk-${token.key}`);
    const calls = gateway.reported.length;
    const before = await balances(gateway.server, userId, token.id);
    const warm = await connection.turn(turnOf('My name is Ada.', { generate: false }));
    expect(warm.map((event) => event.type)).toEqual(['response.completed']);
    expect(completedOf(warm).output).toEqual([]);
    expect(gateway.reported.length).toBe(calls);
    expect(await balances(gateway.server, userId, token.id)).toEqual(before);
    const events = await connection.turn(turnOf('What is my name?', { previous_response_id: completedOf(warm).id }));
    connection.close();
    expect(textOf(events)).toBe('Your name is Ada.');
  });

  test('a bad key is refused at the handshake with 401 in OpenAI’s error shape', async () => {
    const refused = await refusedHandshake(`${gateway.server.url}/v1/responses`, codexHeaders('sk-not-a-key'));
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: { message: expect.any(String), type: expect.any(String) } });
  });

  test('an upgrade to any other path is answered as before (404)', async () => {
    const user = await createUser(gateway.server, { username: 'ws-other', group: 'openai', quota: 1000 });
    const token = await createToken(gateway.server, user);
    const refused = await refusedHandshake(
      `${gateway.server.url}/v1/chat/completions`,
      codexHeaders(`sk-${token.key}`),
    );
    expect(refused.status).toBe(404);
  });
});

describe('a Responses WebSocket closed during a turn', () => {
  const started = startedForSuite(async () => {
    const server = await startTestServer();
    const upstream = await MockOpenAIUpstream.start();
    // A chat upstream, the Responses request converted: its stream's pace is the mock's.
    await createChannel(server, {
      base_url: upstream.url,
      models: 'gpt-4o-mini',
      config: JSON.stringify({ responses_api: 'chat' }),
    });
    return {
      server,
      upstream,
      async close() {
        await server.close();
        await upstream.close();
      },
    };
  });

  test('aborts the upstream call and is charged for what was generated, as an HTTP client leaving', async () => {
    const { server, upstream } = started;
    upstream.set({ chunks: 20, chunkDelayMs: 50, usage: null });
    const userId = await createUser(server, { username: 'ws-leaving', quota: 50_000 });
    const token = await createToken(server, userId, { unlimited_quota: false, remain_quota: 40_000 });
    const before = await balances(server, userId, token.id);
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}/v1/responses`, {
      headers: codexHeaders(`sk-${token.key}`),
    });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    socket.send(JSON.stringify(turnOf('Say hi.', { model: 'gpt-4o-mini' })));
    await new Promise<void>((resolve) =>
      socket.on('message', (data) => {
        if ((JSON.parse(String(data)) as Json).type === 'response.output_text.delta') resolve();
      }),
    );
    socket.close();
    await expect
      .poll(async () => (await balances(server, userId, token.id)).requestCount, { timeout: 5000 })
      .toBe(before.requestCount + 1);
    const after = await balances(server, userId, token.id);
    // The upstream stream was abandoned long before its 20 chunks (1 s) were out.
    await expect.poll(() => upstream.lastRequest?.connectionClosedAt, { timeout: 5000 }).toBeDefined();
    expect(upstream.lastRequest!.eventsSent).toBeLessThan(20);
    expect(after.userUsed - before.userUsed).toBeGreaterThan(0);
    expect(after.userQuota).toBe(before.userQuota - (after.userUsed - before.userUsed));
  });

  test('before the upstream answers, cancels the upstream call at once and charges nothing', async () => {
    const { server, upstream } = started;
    upstream.set({ garbage: 'hang' });
    const userId = await createUser(server, { username: 'ws-leaving-early', quota: 50_000 });
    const token = await createToken(server, userId, { unlimited_quota: false, remain_quota: 40_000 });
    const before = await balances(server, userId, token.id);
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}/v1/responses`, {
      headers: codexHeaders(`sk-${token.key}`),
    });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const requests = upstream.requests.length;
    socket.send(JSON.stringify(turnOf('Say hi.', { model: 'gpt-4o-mini' })));
    await expect.poll(() => upstream.requests.length, { timeout: 5000 }).toBeGreaterThan(requests);
    const leftAt = Date.now();
    socket.close();
    await expect.poll(() => upstream.lastRequest?.connectionClosedAt, { timeout: 5000 }).toBeDefined();
    // Nothing is written to a connection that closed: only its close can end the call this soon.
    expect(upstream.lastRequest!.connectionClosedAt! - leftAt).toBeLessThan(800);
    const after = await balances(server, userId, token.id);
    expect(after.userQuota).toBe(before.userQuota);
    expect(after.requestCount).toBe(before.requestCount);
    upstream.reset();
  });
});
