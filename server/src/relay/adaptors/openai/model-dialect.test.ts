import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { claudeCodeFirstRequest } from '../../../../test/claude-code-tool-loop.js';
import { availableEngines } from '../../../../test/engines.js';
import { MockOpenAIUpstream } from '../../../../test/mock-openai-upstream.js';
import { createChannel, createToken, createUser, priceUnknownModels } from '../../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';
import { chatBodyForModel } from './model-dialect.js';

/** The most output each model writes, as OpenAI documents it (written here apart from the gateway's table). */
const documentedLimits: Record<string, number> = { 'gpt-4o': 16_384, o3: 100_000, 'gpt-5': 128_000 };
const reasoning = (model: string) => model === 'o3' || model === 'gpt-5';

/** OpenAI's own refusals of a chat body, worded as its API words them. */
function openAIChecks(body: Record<string, unknown>) {
  const model = String(body.model);
  if (reasoning(model) && body.max_tokens !== undefined)
    return {
      message:
        "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      param: 'max_tokens',
      code: 'unsupported_parameter',
    };
  for (const [field, accepted] of [
    ['temperature', 1],
    ['top_p', 1],
  ] as const)
    if (reasoning(model) && body[field] !== undefined && body[field] !== accepted)
      return {
        message: `Unsupported value: '${field}' does not support ${String(body[field])} with this model. Only the default (${accepted}) value is supported.`,
        param: field,
        code: 'unsupported_value',
      };
  const given = Number(body.max_completion_tokens ?? body.max_tokens ?? 0);
  const limit = documentedLimits[model];
  if (limit !== undefined && given > limit)
    return {
      message: `max_tokens is too large: ${given}. This model supports at most ${limit} completion tokens, whereas you provided ${given}.`,
      param: 'max_tokens',
      code: 'invalid_value',
    };
  return undefined;
}

describe.each(await availableEngines())('Claude Code and Gemini clients on OpenAI channels on $label', (engine) => {
  let server: TestServer;
  let upstream: MockOpenAIUpstream;
  let token: { id: number; key: string };
  beforeAll(async () => {
    server = await startTestServer({ engine });
    upstream = await MockOpenAIUpstream.start();
    await priceUnknownModels(server);
    await createChannel(server, { base_url: upstream.url, models: 'gpt-4o,o3,gpt-5' });
    const userId = await createUser(server, { username: 'agents', quota: 1_000_000_000 });
    token = await createToken(server, userId);
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });
  beforeEach(() => {
    upstream.reset();
    upstream.behaviour = { refuse: openAIChecks };
  });

  const anthropic = () => new Anthropic({ apiKey: `sk-${token.key}`, baseURL: server.url, maxRetries: 0 });
  const sent = () => upstream.requests.at(-1)!.json as Record<string, unknown>;
  /** Claude Code's first request on `model`, streamed through the Anthropic SDK: the text it read. */
  async function claudeCodeText(model: string, fields: Record<string, unknown> = {}): Promise<string> {
    const stream = await anthropic().messages.create({
      ...claudeCodeFirstRequest,
      ...fields,
      model,
      stream: true,
    } as never);
    let text = '';
    for await (const event of stream as unknown as AsyncIterable<Anthropic.RawMessageStreamEvent>)
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
    return text;
  }

  test.each([
    ['gpt-4o', { max_tokens: 16_384 }],
    ['o3', { max_completion_tokens: 100_000 }],
    ['gpt-5', { max_completion_tokens: 128_000 }],
  ])("Claude Code's request (max_tokens 128000) answers on %s", async (model, limit) => {
    expect(await claudeCodeText(model, { temperature: 0.7 })).toBe('Hello from the mock upstream');
    expect(sent()).toMatchObject(limit);
    if (reasoning(model)) expect(sent()).not.toHaveProperty('max_tokens');
    if (reasoning(model)) expect(sent()).not.toHaveProperty('temperature');
    else expect(sent().temperature).toBe(0.7);
  });

  test("on an Azure channel, Claude Code's request reaches the o3 deployment in o3's dialect", async () => {
    // A model of its own, so the other tests' calls stay on the OpenAI channel.
    await createChannel(server, {
      type: 3,
      base_url: upstream.url,
      models: 'azure-o3',
      model_mapping: JSON.stringify({ 'azure-o3': 'o3' }),
    });
    expect(await claudeCodeText('azure-o3')).toBe('Hello from the mock upstream');
    expect(upstream.requests.at(-1)!.url).toContain('/openai/deployments/o3/chat/completions');
    expect(sent()).toMatchObject({ max_completion_tokens: 100_000 });
    expect(sent()).not.toHaveProperty('max_tokens');
  });

  test.each([
    ['gpt-4o', { max_tokens: 16_384, temperature: 0, top_p: 1 }],
    ['o3', { max_completion_tokens: 65_536, top_p: 1 }],
  ])("Gemini CLI's generation config answers on %s", async (model, expected) => {
    const response = await fetch(`${server.url}/v1beta/models/${model}:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': `sk-${token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
        generationConfig: { temperature: 0, topP: 1, maxOutputTokens: 65_536 },
      }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(sent()).toMatchObject(expected);
    if (reasoning(model)) expect(sent()).not.toHaveProperty('temperature');
  });
});

describe('a chat body in its model dialect', () => {
  test('a body the model takes is the same object (the client bytes go as they came)', () => {
    const body = { model: 'gpt-4o', max_tokens: 1000, temperature: 0.2 };
    expect(chatBodyForModel(body, 'gpt-4o')).toBe(body);
    const unknown = { model: 'my-model', max_tokens: 500_000 };
    expect(chatBodyForModel(unknown, 'my-model')).toBe(unknown);
  });

  test('reasoning models: the limit renamed, refused parameters left out unless at their default', () => {
    expect(
      chatBodyForModel(
        { max_tokens: 5000, temperature: 1, top_p: 0.9, presence_penalty: 0, logit_bias: {} },
        'o4-mini',
      ),
    ).toEqual({ max_completion_tokens: 5000, temperature: 1, presence_penalty: 0 });
    expect(chatBodyForModel({ max_tokens: 10, max_completion_tokens: 20 }, 'openai/o1')).toEqual({
      max_completion_tokens: 20,
    });
    // gpt-5's chat variant is no reasoning model; gpt-5.1 without reasoning takes sampling parameters again.
    expect(chatBodyForModel({ max_tokens: 10, temperature: 0.5 }, 'gpt-5-chat-latest')).toEqual({
      max_tokens: 10,
      temperature: 0.5,
    });
    expect(chatBodyForModel({ temperature: 0.5, reasoning_effort: 'none' }, 'gpt-5.1')).toEqual({
      temperature: 0.5,
      reasoning_effort: 'none',
    });
  });
});
