import { describe, expect, test } from 'vitest';
import { createToken, createUser } from '../../test/relay-fixtures.js';
import { startedForSuite } from '../../test/suite-lifecycle.js';
import { startTestServer } from '../../test/test-server.js';
import { maxJsonDepth, nestsDeeperThan } from '../lib/json-body.js';

/** `{"a":{"a":…{"a":1}…}}` opened `depth` times. */
const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
/** A request body whose `metadata` nests `depth` levels below the top object. */
const bodyNesting = (depth: number) => `{"model":"gpt-4o","metadata":${nested(depth - 1)}}`;

describe('hostile bodies: one nesting limit at parse for every route (issue 32, point 5)', () => {
  const server = startedForSuite(() => startTestServer());
  const key = startedForSuite(async () => {
    const userId = await createUser(server, { username: 'deep-bodies', quota: 1e9 });
    return { value: `sk-${(await createToken(server, userId)).key}` };
  });
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });

  test('a 5,000-deep body answers 400 in each front dialect and on /api, never 500', async () => {
    const deep = bodyNesting(5000);
    const bearer = { authorization: `Bearer ${key.value}` };
    const answers = {
      chat: await post('/v1/chat/completions', deep, bearer),
      messages: await post('/v1/messages', deep, { 'x-api-key': key.value, 'anthropic-version': '2023-06-01' }),
      responses: await post('/v1/responses', deep, bearer),
      gemini: await post('/v1beta/models/gemini-2.0-flash:generateContent', deep, { 'x-goog-api-key': key.value }),
      geminiStream: await post('/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse', deep, {
        'x-goog-api-key': key.value,
      }),
      api: await post('/api/user/login', deep),
    };
    const bodies = Object.fromEntries(
      await Promise.all(Object.entries(answers).map(async ([name, answer]) => [name, await answer.json()])),
    );
    for (const [name, answer] of Object.entries(answers)) expect(answer.status, name).toBe(400);
    const limit = `nests deeper than ${maxJsonDepth} levels`;
    expect(bodies.chat.error.message).toContain(limit);
    expect(bodies.responses.error.message).toContain(limit);
    expect(bodies.messages).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(bodies.messages.error.message).toContain(limit);
    expect(bodies.gemini.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(bodies.gemini.error.message).toContain(limit);
    expect(bodies.geminiStream.error.message).toContain(limit);
    expect(bodies.api).toEqual({
      success: false,
      message: `the request body nests deeper than ${maxJsonDepth} levels`,
    });
  });

  test('a body at the limit is parsed as before: the route answers its own refusal, not the nesting one', async () => {
    const atLimit = await post('/v1/chat/completions', bodyNesting(maxJsonDepth), {
      authorization: `Bearer ${key.value}`,
    });
    expect(atLimit.status).toBe(400);
    expect((await atLimit.json()).error.message).not.toContain('nests deeper');
    const login = await post('/api/user/login', `{"username":"nobody","password":"x","extra":${nested(100)}}`);
    expect((await login.json()).message).not.toContain('nests deeper');
  });

  test('an unknown /v1beta GET answers a JSON 404, not the console page', async () => {
    for (const path of ['/v1beta/nothing-here', '/v1beta/models/gemini-2.0-flash/unknown', '/v1beta']) {
      const answer = await fetch(`${server.url}${path}`, { headers: { 'x-goog-api-key': key.value } });
      expect(answer.status, path).toBe(404);
      expect(answer.headers.get('content-type'), path).toMatch(/^application\/json/);
      expect((await answer.json()).error.message, path).toContain('Invalid URL');
    }
  });

  test('the depth scan skips strings, counts escapes, and costs little on a 1 KB body', () => {
    const brackets = '['.repeat(500);
    expect(nestsDeeperThan(Buffer.from(`{"text":"${brackets}","n":1}`))).toBe(false);
    expect(nestsDeeperThan(Buffer.from(`{"text":"a\\\\","deep":${nested(200)}}`))).toBe(true);
    expect(nestsDeeperThan(Buffer.from(`{"text":"a\\"${brackets}"}`))).toBe(false);
    expect(nestsDeeperThan(Buffer.from(nested(maxJsonDepth)))).toBe(false);
    expect(nestsDeeperThan(Buffer.from(nested(maxJsonDepth + 1)))).toBe(true);
    const kilobyte = Buffer.from(
      JSON.stringify({
        model: 'gpt-4o',
        messages: Array.from({ length: 8 }, (_, index) => ({ role: 'user', content: `question ${index} `.repeat(8) })),
        tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }],
      }),
    );
    expect(kilobyte.length).toBeGreaterThan(1000);
    const rounds = 20_000;
    let started = process.hrtime.bigint();
    for (let round = 0; round < rounds; round++) nestsDeeperThan(kilobyte);
    const scanNs = Number(process.hrtime.bigint() - started) / rounds;
    started = process.hrtime.bigint();
    for (let round = 0; round < rounds; round++) JSON.parse(kilobyte.toString('utf8'));
    const parseNs = Number(process.hrtime.bigint() - started) / rounds;
    console.log(`1 KB body: depth scan ${scanNs.toFixed(0)} ns, JSON.parse ${parseNs.toFixed(0)} ns`);
    // Loose on purpose (a loaded machine): the scan is a small part of what parsing already costs.
    expect(scanNs).toBeLessThan(parseNs * 2);
  });
});
