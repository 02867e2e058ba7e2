import { ApiError, GoogleGenAI, type Content, type GenerateContentResponse } from '@google/genai';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  openaiUpstreamKey,
  startScriptedGeminiUpstream,
  startScriptedOpenAIUpstream,
  type Script,
  type ScriptedUpstream,
} from '../../../test/gemini-front-upstreams.js';
import { geminiMockKey } from '../../../test/mock-upstreams/gemini.js';
import { startVertexMock } from '../../../test/mock-upstreams/vertexai.js';
import { balances, createChannel, createToken, createUser, setOption, settled } from '../../../test/relay-fixtures.js';
import { startedForSuite } from '../../../test/suite-lifecycle.js';
import { startTestServer } from '../../../test/test-server.js';
import { droppedHeader } from '../../relay/fronts/dropped-header.js';

/** Calls get_weather for a weather question; answers with the tool's result once it came back. */
const weatherScript: Script = {
  toolCall: (prompt, tools) =>
    /weather/i.test(prompt) && tools.includes('get_weather')
      ? { name: 'get_weather', args: { city: 'Paris' } }
      : undefined,
  answer: (_prompt, toolResult) =>
    toolResult ? `Paris: ${toolResult.includes('sunny') ? 'sunny' : '?'}.` : 'Hello there.',
};

const chatModel = 'gemini-2.5-flash';
const embeddingModel = 'text-embedding-004';

/** Prices (model ratio, completion ratio) by the upstream model a log names. */
const prices: Record<string, { model: number; completion: number }> = {
  'gemini-2.5-flash': { model: 1.5, completion: 4 },
  'text-embedding-004': { model: 0.25, completion: 1 },
  'gpt-4o-mini': { model: 0.5, completion: 2 },
  'text-embedding-3-small': { model: 0.1, completion: 1 },
  'gemini-2.0-flash-001': { model: 2, completion: 3 },
};

const weatherTool = {
  functionDeclarations: [
    {
      name: 'get_weather',
      description: 'Current weather of a city',
      parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  ],
};

describe("Gemini's API in front of every channel, driven by @google/genai", () => {
  const server = startedForSuite(() => startTestServer());
  const gemini = startedForSuite(() => startScriptedGeminiUpstream(weatherScript));
  const openai = startedForSuite(() => startScriptedOpenAIUpstream(weatherScript));
  const channelIds: Record<string, number> = {};

  beforeAll(async () => {
    const ratio = (pick: 'model' | 'completion') =>
      JSON.stringify(Object.fromEntries(Object.entries(prices).map(([name, price]) => [name, price[pick]])));
    await setOption(server, 'ModelRatio', ratio('model'));
    await setOption(server, 'CompletionRatio', ratio('completion'));
    channelIds.gemini = (
      await createChannel(server, {
        type: 24,
        name: 'gemini',
        group: 'gemini-channel',
        key: geminiMockKey,
        base_url: gemini.url,
        models: `${chatModel},${embeddingModel}`,
      })
    ).id;
    channelIds.openai = (
      await createChannel(server, {
        type: 1,
        name: 'openai',
        group: 'openai-channel',
        key: openaiUpstreamKey,
        base_url: openai.url,
        models: `${chatModel},${embeddingModel}`,
        model_mapping: JSON.stringify({ [chatModel]: 'gpt-4o-mini', [embeddingModel]: 'text-embedding-3-small' }),
      })
    ).id;
  });

  let users = 0;
  /** A new user of the channel's group with a limited key, and the SDK pointed at the gateway with it. */
  async function clientOf(kind: 'gemini' | 'openai') {
    const userId = await createUser(server, { username: `${kind}-${++users}`, group: `${kind}-channel`, quota: 9e7 });
    const token = await createToken(server, userId, { remain_quota: 5e7, unlimited_quota: false });
    const key = `sk-${token.key}`;
    const ai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: server.url } });
    const before = await balances(server, userId, token.id);
    const upstream: ScriptedUpstream = kind === 'gemini' ? gemini : openai;
    const from = { reported: upstream.reported.length, requests: upstream.requests.length };
    /** Every upstream call since the client was made has its consume log at its exact price, and was paid. */
    const expectBilledExactly = async () => {
      const reported = upstream.reported.slice(from.reported);
      const after = await balances(server, userId, token.id);
      const logs = await server.context.logDatabase.db
        .selectFrom('logs')
        .select(['quota', 'prompt_tokens', 'completion_tokens', 'model_name', 'channel_id'])
        .where('user_id', '=', userId)
        .where('type', '=', 2)
        .orderBy('id')
        .execute();
      expect(logs.map((log) => [log.model_name, log.prompt_tokens, log.completion_tokens])).toEqual(
        reported.map((usage) => [usage.model, usage.prompt, usage.completion]),
      );
      for (const log of logs) {
        const price = prices[log.model_name]!;
        expect(Number(log.quota)).toBe(
          Math.ceil((log.prompt_tokens + log.completion_tokens * price.completion) * price.model),
        );
        expect(log.channel_id).toBe(channelIds[kind]);
      }
      const charged = logs.reduce((sum, log) => sum + Number(log.quota), 0);
      expect(before.userQuota - after.userQuota).toBe(charged);
      expect(before.tokenRemain - after.tokenRemain).toBe(charged);
      return charged;
    };
    return { ai, key, userId, upstream, requests: () => upstream.requests.slice(from.requests), expectBilledExactly };
  }

  describe.each(['gemini', 'openai'] as const)('on a %s channel', (kind) => {
    const native = kind === 'gemini';

    test('generateContent: the answer, its usage, what the upstream got; billed exactly', async () => {
      const client = await clientOf(kind);
      const response = await client.ai.models.generateContent({
        model: chatModel,
        contents: 'Say hi.',
        config: {
          systemInstruction: 'Be terse.',
          temperature: 0.3,
          thinkingConfig: { thinkingBudget: 128 },
          safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT' as never, threshold: 'BLOCK_NONE' as never }],
        },
      });
      expect(response.text).toBe('Hello there.');
      const [sent] = client.requests();
      const reported = client.upstream.reported.at(-1)!;
      if (native) {
        expect(sent!.path).toBe(`/v1beta/models/${chatModel}:generateContent`);
        expect(sent!.json).toEqual({
          contents: [{ parts: [{ text: 'Say hi.' }], role: 'user' }],
          systemInstruction: { parts: [{ text: 'Be terse.' }], role: 'user' },
          generationConfig: { temperature: 0.3, thinkingConfig: { thinkingBudget: 128 } },
          safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
        });
        expect(response.usageMetadata?.thoughtsTokenCount).toBe(
          reported.completion - response.usageMetadata!.candidatesTokenCount!,
        );
        expect(response.sdkHttpResponse?.headers?.[droppedHeader]).toBeUndefined();
      } else {
        expect(sent!.json).toMatchObject({
          model: 'gpt-4o-mini',
          messages: [
            { role: 'system', content: 'Be terse.' },
            { role: 'user', content: 'Say hi.' },
          ],
          temperature: 0.3,
        });
        expect(response.usageMetadata).toMatchObject({
          promptTokenCount: reported.prompt,
          candidatesTokenCount: reported.completion,
        });
        // The thinking budget became reasoning_effort (decision 0028), which gpt-4o-mini does not take: the
        // OpenAI dialect drops it and names it.
        expect(response.sdkHttpResponse?.headers?.[droppedHeader]).toBe('safetySettings,reasoning_effort');
      }
      await client.expectBilledExactly();
    });

    test('generateContentStream: the text in order, the usage last; billed exactly', async () => {
      const client = await clientOf(kind);
      let text = '';
      let last: GenerateContentResponse | undefined;
      for await (const chunk of await client.ai.models.generateContentStream({
        model: chatModel,
        contents: 'Say hi.',
      })) {
        text += chunk.text ?? '';
        last = chunk;
      }
      expect(text).toBe('Hello there.');
      expect(last?.candidates?.[0]?.finishReason).toBe('STOP');
      const reported = client.upstream.reported.at(-1)!;
      expect(last?.usageMetadata?.promptTokenCount).toBe(reported.prompt);
      if (native) expect(client.requests()[0]!.query.get('alt')).toBe('sse');
      await client.expectBilledExactly();
    });

    test('a tool turn: the function call, its answer sent back (streamed), thought signatures kept natively', async () => {
      const client = await clientOf(kind);
      const question: Content = { role: 'user', parts: [{ text: 'What is the weather in Paris?' }] };
      const first = await client.ai.models.generateContent({
        model: chatModel,
        contents: [question],
        config: { tools: [weatherTool] },
      });
      const call = first.functionCalls?.[0];
      expect(call).toMatchObject({ name: 'get_weather', args: { city: 'Paris' } });
      const modelTurn = first.candidates![0]!.content!;
      const answer: Content = {
        role: 'user',
        parts: [{ functionResponse: { id: call!.id, name: 'get_weather', response: { output: 'sunny, 21°C' } } }],
      };
      let text = '';
      for await (const chunk of await client.ai.models.generateContentStream({
        model: chatModel,
        contents: [question, modelTurn, answer],
        config: { tools: [weatherTool] },
      }))
        text += chunk.text ?? '';
      expect(text).toBe('Paris: sunny.');
      const second = client.requests()[1]!.json!;
      if (native) {
        // The model turn went back as Gemini wrote it, signature included.
        expect(JSON.stringify(second.contents)).toContain(
          `"thoughtSignature":"sig-${client.upstream.reported.length - 2}"`,
        );
      } else {
        const messages = second.messages as { role: string; tool_call_id?: string; tool_calls?: { id: string }[] }[];
        const callId = messages[1]!.tool_calls![0]!.id;
        expect(call!.id).toBe(callId);
        expect(messages[2]).toEqual({ role: 'tool', tool_call_id: callId, content: '{"output":"sunny, 21°C"}' });
        expect((second.tools as unknown[])[0]).toEqual({
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Current weather of a city',
            parameters: weatherTool.functionDeclarations[0]!.parametersJsonSchema,
          },
        });
      }
      await client.expectBilledExactly();
    });

    test('countTokens is answered by the gateway, free of charge', async () => {
      const client = await clientOf(kind);
      const counted = await client.ai.models.countTokens({ model: chatModel, contents: 'How many tokens is this?' });
      expect(counted.totalTokens).toBeGreaterThan(5);
      expect(client.requests()).toEqual([]);
      expect(await client.expectBilledExactly()).toBe(0);
    });

    test('embedContent (the SDK batches) and a raw embedContent with ?key=; billed exactly', async () => {
      const client = await clientOf(kind);
      const embedded = await client.ai.models.embedContent({
        model: embeddingModel,
        contents: ['hello', 'world!'],
        config: { outputDimensionality: 3 },
      });
      expect(embedded.embeddings?.map((embedding) => embedding.values)).toEqual([
        [5, 104, 0.5],
        [6, 119, 0.5],
      ]);
      const raw = await fetch(`${server.url}/v1beta/models/${embeddingModel}:embedContent?key=${client.key}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content: { parts: [{ text: 'hey' }] }, taskType: 'RETRIEVAL_QUERY' }),
      });
      expect(raw.status).toBe(200);
      expect(await raw.json()).toEqual({ embedding: { values: [3, 104, 0.5] } });
      const [batch, single] = client.requests();
      if (native) {
        expect(batch!.path).toBe(`/v1beta/models/${embeddingModel}:batchEmbedContents`);
        expect(single!.path).toBe(`/v1beta/models/${embeddingModel}:embedContent`);
        expect(single!.json).toEqual({ content: { parts: [{ text: 'hey' }] }, taskType: 'RETRIEVAL_QUERY' });
        expect(raw.headers.get(droppedHeader)).toBeNull();
        // Gemini reports no usage for embeddings: the gateway counts the input, as for OpenAI clients.
        await settled(server);
        const logs = await server.context.logDatabase.db
          .selectFrom('logs')
          .select(['quota', 'prompt_tokens'])
          .where('user_id', '=', client.userId)
          .where('type', '=', 2)
          .execute();
        expect(logs).toHaveLength(2);
        for (const log of logs) {
          expect(log.prompt_tokens).toBeGreaterThan(0);
          expect(Number(log.quota)).toBe(Math.ceil(log.prompt_tokens * prices[embeddingModel]!.model));
        }
      } else {
        expect(batch!.json).toEqual({
          model: 'text-embedding-3-small',
          input: ['hello', 'world!'],
          encoding_format: 'float',
          dimensions: 3,
        });
        expect(raw.headers.get(droppedHeader)).toBe('taskType');
        await client.expectBilledExactly();
      }
    });

    test('a stream without alt=sse is one JSON array, as Google sends it', async () => {
      const client = await clientOf(kind);
      const response = await fetch(`${server.url}/v1beta/models/${chatModel}:streamGenerateContent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': client.key },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Say hi.' }] }] }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('application/json');
      const responses = (await response.json()) as GenerateContentResponse[];
      const text = responses
        .flatMap((item) => item.candidates?.[0]?.content?.parts ?? [])
        .filter((part) => !part.thought)
        .map((part) => part.text ?? '')
        .join('');
      expect(text).toBe('Hello there.');
      expect(responses.at(-1)?.usageMetadata?.promptTokenCount).toBe(client.upstream.reported.at(-1)!.prompt);
      await client.expectBilledExactly();
    });

    test('the model list and one model, in Gemini’s shape, from the models the key may call', async () => {
      const client = await clientOf(kind);
      const names: string[] = [];
      for await (const model of await client.ai.models.list()) names.push(model.name ?? '');
      expect(names.sort()).toEqual([`models/${chatModel}`, `models/${embeddingModel}`]);
      const model = await client.ai.models.get({ model: chatModel });
      expect(model).toMatchObject({
        name: `models/${chatModel}`,
        // The SDK names Gemini's supportedGenerationMethods supportedActions.
        supportedActions: expect.arrayContaining(['generateContent']),
      });
    });
  });

  describe('on a Vertex AI channel (its model mapped, its own system prompt)', () => {
    const vertex = startedForSuite(() => startVertexMock());

    test("the client's body reaches Vertex as sent, the channel's prompt as systemInstruction; billed exactly", async () => {
      await createChannel(server, {
        type: 42,
        name: 'vertex',
        group: 'vertex-channel',
        key: `us-central1|mock-project|${JSON.stringify(vertex.serviceAccount)}`,
        base_url: vertex.url,
        models: 'gemini-on-vertex',
        model_mapping: JSON.stringify({ 'gemini-on-vertex': 'gemini-2.0-flash-001' }),
        system_prompt: 'Be brief.',
      });
      const userId = await createUser(server, { username: 'vertex-1', group: 'vertex-channel', quota: 9e7 });
      const token = await createToken(server, userId);
      const before = await balances(server, userId, token.id);
      const ai = new GoogleGenAI({ apiKey: `sk-${token.key}`, httpOptions: { baseUrl: server.url } });
      const response = await ai.models.generateContent({
        model: 'gemini-on-vertex',
        contents: 'Hi!',
        config: {
          systemInstruction: 'Talk a lot.',
          safetySettings: [{ category: 'HARM_CATEGORY_HATE_SPEECH' as never, threshold: 'OFF' as never }],
        },
      });
      // The recorded answer of the mock, as Vertex sent it.
      expect(response.text).toBe('Hello! How can I help you today?');
      expect(response.modelVersion).toBe('gemini-1.5-flash-002');
      const sent = vertex.requests.find((request) => request.path.includes('publishers/google'))!;
      expect(sent.path).toBe(
        '/v1/projects/mock-project/locations/us-central1/publishers/google/models/gemini-2.0-flash-001:generateContent',
      );
      expect(sent.json).toEqual({
        contents: [{ parts: [{ text: 'Hi!' }], role: 'user' }],
        systemInstruction: { parts: [{ text: 'Be brief.' }] },
        // The SDK's empty generationConfig, passed on as it came.
        generationConfig: {},
        safetySettings: [{ category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'OFF' }],
      });
      const after = await balances(server, userId, token.id);
      const [log] = await server.context.logDatabase.db
        .selectFrom('logs')
        .select(['quota', 'prompt_tokens', 'completion_tokens', 'model_name'])
        .where('user_id', '=', userId)
        .where('type', '=', 2)
        .execute();
      expect(log).toMatchObject({ prompt_tokens: 9, completion_tokens: 10, model_name: 'gemini-2.0-flash-001' });
      expect(Number(log!.quota)).toBe(Math.ceil((9 + 10 * 3) * 2));
      expect(before.userQuota - after.userQuota).toBe(Number(log!.quota));
    });
  });

  test('after a first channel fails (500), x-modelgate-dropped describes the channel that answered', async () => {
    await setOption(server, 'RetryTimes', '1');
    try {
      // Per group, a channel of one kind in front (it fails once) and one of the other behind it.
      const channel = (kind: 'gemini' | 'openai', group: string, priority: number) =>
        createChannel(server, {
          type: kind === 'gemini' ? 24 : 1,
          name: `${kind} of ${group}`,
          group,
          key: kind === 'gemini' ? geminiMockKey : openaiUpstreamKey,
          base_url: kind === 'gemini' ? gemini.url : openai.url,
          models: chatModel,
          priority,
          ...(kind === 'openai' ? { model_mapping: JSON.stringify({ [chatModel]: 'gpt-4o-mini' }) } : {}),
        });
      await channel('gemini', 'gemini-then-openai', 5);
      const openaiBehind = await channel('openai', 'gemini-then-openai', 0);
      await channel('openai', 'openai-then-gemini', 5);
      const geminiBehind = await channel('gemini', 'openai-then-gemini', 0);
      const keyOf = async (group: string) => {
        const userId = await createUser(server, { username: `retry-${group}`, group, quota: 9e7 });
        return { userId, key: `sk-${(await createToken(server, userId)).key}` };
      };
      const body = JSON.stringify({
        contents: [{ role: 'user', parts: [{ text: 'Say hi.' }] }],
        safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
      });
      const post = (key: string, method: string) =>
        fetch(`${server.url}/v1beta/models/${chatModel}:${method}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-goog-api-key': key },
          body,
        });
      const googleFailure = { error: { code: 500, message: 'Internal error encountered.', status: 'INTERNAL' } };
      const servedBy = async (userId: number) =>
        (
          await server.context.logDatabase.db
            .selectFrom('logs')
            .select('channel_id')
            .where('user_id', '=', userId)
            .where('type', '=', 2)
            .orderBy('id')
            .execute()
        ).map((log) => log.channel_id);

      // The Gemini channel got the body as sent and failed; the OpenAI channel answered without safetySettings.
      const toOpenAI = await keyOf('gemini-then-openai');
      gemini.failNext(500, googleFailure);
      const whole = await post(toOpenAI.key, 'generateContent');
      expect(whole.status).toBe(200);
      expect(gemini.requests.at(-1)!.path).toBe(`/v1beta/models/${chatModel}:generateContent`);
      expect(((await whole.json()) as GenerateContentResponse).candidates?.[0]?.content?.parts).toEqual([
        { text: 'Hello there.' },
      ]);
      expect(whole.headers.get(droppedHeader)).toBe('safetySettings');
      gemini.failNext(500, googleFailure);
      const stream = await post(toOpenAI.key, 'streamGenerateContent');
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toContain('application/json');
      expect(stream.headers.get(droppedHeader)).toBe('safetySettings');
      expect(Array.isArray(await stream.json())).toBe(true);
      await settled(server);
      expect(await servedBy(toOpenAI.userId)).toEqual([openaiBehind.id, openaiBehind.id]);

      // The OpenAI channel got a conversion and failed; the Gemini channel got the body as sent: nothing dropped.
      const toGemini = await keyOf('openai-then-gemini');
      openai.failNext(500, { error: { message: 'The server had an error', type: 'server_error' } });
      const native = await post(toGemini.key, 'generateContent');
      expect(native.status).toBe(200);
      expect(native.headers.get(droppedHeader)).toBeNull();
      expect(openai.requests.at(-1)!.path).toBe('/v1/chat/completions');
      expect(gemini.requests.at(-1)!.json).toMatchObject({
        safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
      });
      await settled(server);
      expect(await servedBy(toGemini.userId)).toEqual([geminiBehind.id]);
    } finally {
      await setOption(server, 'RetryTimes', '0');
    }
  });

  describe('failures in Google’s error shape', () => {
    test('a wrong key: 401 UNAUTHENTICATED, as the SDK reads it', async () => {
      const ai = new GoogleGenAI({ apiKey: 'sk-wrong', httpOptions: { baseUrl: server.url } });
      const failure = await ai.models
        .generateContent({ model: chatModel, contents: 'hi' })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ApiError);
      expect((failure as ApiError).status).toBe(401);
      expect(JSON.parse((failure as ApiError).message)).toMatchObject({
        error: { code: 401, status: 'UNAUTHENTICATED' },
      });
    });

    test('a bad body names the field; a bad JSON, an unknown method and a forbidden model are refused', async () => {
      const client = await clientOf('gemini');
      const post = (path: string, body: string) =>
        fetch(`${server.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-goog-api-key': client.key },
          body,
        });
      const bad = await post(
        `/v1beta/models/${chatModel}:generateContent`,
        JSON.stringify({ contents: [{ parts: 'x' }] }),
      );
      expect(bad.status).toBe(400);
      const badBody = (await bad.json()) as { error: { status: string; message: string; details: unknown[] } };
      expect(badBody.error).toMatchObject({
        code: 400,
        status: 'INVALID_ARGUMENT',
        details: [{ fieldViolations: [{ field: 'contents[0].parts' }] }],
      });
      expect(badBody.error.message).toContain("'contents[0].parts'");
      const notJson = await post(`/v1beta/models/${chatModel}:generateContent`, '{');
      expect(notJson.status).toBe(400);
      expect(await notJson.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
      const unknown = await post(`/v1beta/models/${chatModel}:predict`, '{}');
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } });
      // No channel serves this model for the key's group.
      const elsewhere = await post(
        `/v1beta/models/gpt-5:generateContent`,
        JSON.stringify({ contents: [{ parts: [{ text: 'hi' }] }] }),
      );
      expect(elsewhere.status).not.toBe(500);
      expect(await elsewhere.json()).toMatchObject({ error: { code: elsewhere.status, status: expect.any(String) } });
    });

    test("a Gemini upstream's refusal comes back with Google's status; nothing is charged", async () => {
      const client = await clientOf('gemini');
      gemini.failNext(400, {
        error: { code: 400, message: 'Request contains an invalid argument.', status: 'INVALID_ARGUMENT' },
      });
      const failure = await client.ai.models
        .generateContent({ model: chatModel, contents: 'hi' })
        .catch((error: unknown) => error as ApiError);
      expect((failure as ApiError).status).toBe(400);
      expect(JSON.parse((failure as ApiError).message)).toMatchObject({
        error: {
          code: 400,
          status: 'INVALID_ARGUMENT',
          message: expect.stringContaining('Request contains an invalid argument.'),
        },
      });
      expect(await client.expectBilledExactly()).toBe(0);
    });

    test('the same methods under /v1, and a CORS preflight under /v1beta', async () => {
      const client = await clientOf('gemini');
      const response = await fetch(`${server.url}/v1/models/${chatModel}:generateContent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': client.key },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Say hi.' }] }] }),
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ candidates: [{ content: { parts: [{ text: 'Hello there.' }] } }] });
      const preflight = await fetch(`${server.url}/v1beta/models/${chatModel}:generateContent`, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
      });
      expect(preflight.status).toBe(204);
      await client.expectBilledExactly();
    });
  });
});
