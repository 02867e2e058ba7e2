import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MockOpenAIUpstream } from '../../../test/mock-openai-upstream.js';
import { createChannel, createToken, createUser } from '../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import type { RoutedChannel } from '../routing/channel-router.js';
import { ChannelType } from '../../domain/channel/channel.constants.js';
import { lazyObject, outlineJson } from '../../lib/json-outline.js';
import { prepareBody } from './prepare-body.js';
import type { JobBody } from './relay-job.js';

// The SDK writes compact JSON, which re-serialising reproduces byte for byte; these hand-written bodies
// (indented, spaced) tell forwarded bytes from re-serialised ones.
const wholeBody = '{\n  "model": "gpt-4o-mini",\n  "messages": [ { "role": "user", "content": "hi" } ]\n}';
const streamWithUsageBody =
  '{ "model": "gpt-4o-mini", "stream": true, "stream_options": { "include_usage": true },' +
  ' "messages": [ { "role": "user", "content": "hi" } ] }';

describe.each([
  { enforced: false, label: 'off' },
  { enforced: true, label: 'on' },
])('ENFORCE_INCLUDE_USAGE $label', ({ enforced }) => {
  let server: TestServer;
  let upstream: MockOpenAIUpstream;
  let apiKey: string;

  beforeAll(async () => {
    server = await startTestServer({ env: enforced ? { ENFORCE_INCLUDE_USAGE: 'true' } : {} });
    upstream = await MockOpenAIUpstream.start();
    await createChannel(server, { base_url: upstream.url, models: 'gpt-4o-mini' });
    const userId = await createUser(server, { username: 'usage', quota: 100_000_000 });
    apiKey = `sk-${(await createToken(server, userId)).key}`;
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  /** Sends `body` as the client's exact bytes and returns the bytes the upstream received. */
  async function relayed(body: string): Promise<string> {
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body,
    });
    expect(response.status).toBe(200);
    await response.text();
    return upstream.lastRequest!.body.toString('utf8');
  }

  test(
    enforced
      ? 'requests with no reason to be rewritten are re-serialised'
      : 'requests with no reason to be rewritten reach the upstream as the client sent them',
    async () => {
      for (const body of [wholeBody, streamWithUsageBody]) {
        expect(await relayed(body)).toBe(enforced ? JSON.stringify(JSON.parse(body)) : body);
      }
    },
  );

  test(
    enforced
      ? 'a stream without stream_options is re-serialised with the option'
      : "a stream without stream_options gets the option added to the client's bytes, which are not re-serialised",
    async () => {
      const body =
        '{ "model": "gpt-4o-mini", "stream": true,\r\n "messages": [ { "role": "user", "content": "hi }" } ] }\r\n';
      const sent = await relayed(body);
      const value = { ...JSON.parse(body), stream_options: { include_usage: true } };
      expect(sent).toBe(
        enforced
          ? JSON.stringify(value)
          : '{ "model": "gpt-4o-mini", "stream": true,\r\n "messages": [ { "role": "user", "content": "hi }" } ] ' +
              ',"stream_options":{"include_usage":true}}\r\n',
      );
      expect(JSON.parse(sent)).toEqual(value);
    },
  );

  test(
    enforced
      ? "an agent's long conversation is re-serialised with the option"
      : "an agent's long conversation (outlined, not decoded) keeps its bytes, with the option written in",
    async () => {
      const turns = Array.from({ length: 60 }, (_, turn) => ({
        role: turn % 2 ? 'assistant' : 'user',
        content: `turn ${turn}: 你好, "code" \\ {"json": [1, 2]} `.repeat(8),
      }));
      // Spaced as Python's json.dumps writes it, so forwarded bytes differ from re-serialised ones.
      const body = `{"model": "gpt-4o-mini", "messages": ${JSON.stringify(turns).replace(/,"/g, ', "')}, "stream": true}`;
      expect(Buffer.byteLength(body)).toBeGreaterThan(16 * 1024);
      const sent = await relayed(body);
      const value = { ...JSON.parse(body), stream_options: { include_usage: true } };
      expect(sent).toBe(
        enforced ? JSON.stringify(value) : `${body.slice(0, -1)},"stream_options":{"include_usage":true}}`,
      );
    },
  );

  test('a stream without stream_options asks the upstream for usage, and the client gets it', async () => {
    const client = new OpenAI({ apiKey, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    let usage;
    for await (const chunk of stream) usage ??= chunk.usage ?? undefined;
    expect(upstream.lastRequest!.json.stream_options).toEqual({ include_usage: true });
    expect(usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 5 });
  });

  test('a stream that turned usage off gets it forced back on', async () => {
    const client = new OpenAI({ apiKey, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: false },
    });
    for await (const _chunk of stream);
    expect(upstream.lastRequest!.json.stream_options).toEqual({ include_usage: true });
  });
});

describe('prepareBody', () => {
  const channel = (systemPrompt: string | null, type = 1) =>
    ({ row: { system_prompt: systemPrompt, type } }) as unknown as RoutedChannel;
  const jobBody = (value: Record<string, unknown>): Extract<JobBody, { kind: 'json' }> => ({
    kind: 'json',
    value,
    raw: Buffer.from(JSON.stringify(value)),
    filled: false,
  });

  test('a body with nothing to change is passed on as it is, marked unchanged', () => {
    const body = jobBody({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    const prepared = prepareBody(body, 'chat', false, channel(null), 'gpt-4o-mini');
    expect(prepared.body).toMatchObject({ kind: 'json', changed: false, raw: body.raw });
    expect(prepared.body.kind === 'json' && prepared.body.value).toBe(body.value);
  });

  test("changes for one channel leave the job's body as the client sent it, for the next attempt", () => {
    const messages = [{ role: 'user', content: 'hi' }];
    const body = jobBody({ model: 'gpt-4o-mini', messages, stream: true });
    const prepared = prepareBody(body, 'chat', true, channel('Be brief.'), 'gpt-4o-mini-mapped');
    expect(prepared.systemPromptReset).toBe(true);
    expect(prepared.body).toMatchObject({
      changed: true,
      value: {
        model: 'gpt-4o-mini-mapped',
        messages: [{ role: 'system', content: 'Be brief.' }, ...messages],
        stream_options: { include_usage: true },
      },
    });
    expect(body.value).toEqual({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream: true });
  });

  test('asking a stream for usage keeps the JSON valid whatever surrounds the closing brace', () => {
    for (const raw of ['{}', '{ }', '{"model":"m"}', '{\n  "model": "m"\n}\n', '{"a":{"b":"}"}}  ']) {
      const body = { kind: 'json' as const, value: JSON.parse(raw), raw: Buffer.from(raw), filled: false };
      const prepared = prepareBody(body, 'chat', true, channel(null), body.value.model ?? 'm-none');
      if (prepared.body.kind !== 'json') throw new Error('not json');
      expect(prepared.body.changed).toBe(false);
      expect(JSON.parse(prepared.body.raw.toString())).toEqual({
        ...body.value,
        stream_options: { include_usage: true },
      });
      expect(prepared.body.value).toEqual(JSON.parse(prepared.body.raw.toString()));
    }
  });

  test('an output cap set by the balance replaces every limit the client gave', () => {
    const body = jobBody({ model: 'gpt-4o', messages: [], max_tokens: 128_000, max_completion_tokens: 128_000 });
    const prepared = prepareBody(body, 'chat', false, channel(null), 'gpt-4o', false, 2063);
    expect(prepared.body).toMatchObject({
      changed: true,
      value: { max_tokens: 2063, max_completion_tokens: 2063 },
    });
    expect(body.value.max_tokens).toBe(128_000);
  });

  test("without a client limit the cap goes in the channel's field: max_completion_tokens for OpenAI, else max_tokens", () => {
    const body = jobBody({ model: 'gpt-4o', messages: [] });
    const openai = prepareBody(body, 'chat', false, channel(null, ChannelType.OpenAI), 'gpt-4o', false, 500);
    expect(openai.body.kind === 'json' && openai.body.value).toMatchObject({ max_completion_tokens: 500 });
    expect(openai.body.kind === 'json' && openai.body.value.max_tokens).toBeUndefined();
    const other = prepareBody(body, 'chat', false, channel(null, ChannelType.DeepSeek), 'deepseek-chat', false, 500);
    expect(other.body.kind === 'json' && other.body.value).toMatchObject({ max_tokens: 500 });
    expect(other.body.kind === 'json' && other.body.value.max_completion_tokens).toBeUndefined();
  });

  test("an outlined body's changed members are written into its bytes, its conversation never decoded", () => {
    const value = {
      model: 'gpt-4o',
      messages: [{ role: 'user', content: '你好 "there" \\ }' }],
      stream: true,
      stream_options: { include_usage: false, extra: 1 },
      max_tokens: 9000,
    };
    const raw = Buffer.from(JSON.stringify(value));
    const outline = outlineJson(raw)!;
    const body: JobBody = { kind: 'json', value: lazyObject(raw, outline), raw, filled: false, outline };
    const prepared = prepareBody(body, 'chat', true, channel(null), 'gpt-4o-mapped', false, 2063);
    if (prepared.body.kind !== 'json') throw new Error('not json');
    const expected = {
      ...value,
      model: 'gpt-4o-mapped',
      stream_options: { include_usage: true, extra: 1 },
      max_tokens: 2063,
    };
    // The bytes JSON.stringify writes for the changed body (compact JSON, members in place), made without it.
    expect(prepared.body).toMatchObject({ changed: false });
    expect(prepared.body.raw.toString()).toBe(JSON.stringify(expected));
    const undecoded = (object: object) => Object.getOwnPropertyDescriptor(object, 'messages')?.get !== undefined;
    expect(undecoded(body.value)).toBe(true);
    expect(undecoded(prepared.body.value)).toBe(true);
    expect(prepared.body.value).toEqual(expected);
    expect(body.value).toEqual(value);
    // A member the client left out goes last; a system prompt changes the conversation, which is serialised.
    const capped = prepareBody(body, 'chat', false, channel(null), 'gpt-4o', false, 100);
    expect(capped.body.kind === 'json' && capped.body.raw.toString()).toBe(
      JSON.stringify({ ...value, max_tokens: 100 }),
    );
    const prompted = prepareBody(body, 'chat', false, channel('Be brief.'), 'gpt-4o');
    expect(prompted.body).toMatchObject({ changed: true, raw: raw });
  });
});
