import { describe, expect, test } from 'vitest';
import { fixtureBytes } from '../../../../test/mock-upstreams/mock-kit.js';
import { collect, sendWhole } from '../../../../test/mock-upstreams/relay-call-kit.js';
import { startVertexMock } from '../../../../test/mock-upstreams/vertexai.js';
import { relayCall } from '../../../../test/relay-call.js';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';
import { anthropicToChatRequest } from '../../fronts/anthropic/request.js';
import { UpstreamError } from '../../upstream-error.js';
import { tokenEndpoint, vertexAccessToken } from './access-token.js';
import { buildVertexRequest } from './request.js';
import { readVertexError, readVertexResponse } from './response.js';
import { readVertexSettings } from './settings.js';
import { readVertexStream } from './stream.js';

const mock = startedForSuite(() => startVertexMock());

const keyOf = () => `us-central1|mock-project|${JSON.stringify(mock.serviceAccount)}`;
const call = (body: Record<string, unknown>, mode: 'chat' | 'embeddings' = 'chat') =>
  relayCall({ body, mode, type: 42, key: keyOf(), baseUrl: mock.url });

describe('vertex settings', () => {
  test('key region|project|JSON, config fields, JSON alone', () => {
    const fromKey = readVertexSettings(call({ model: 'gemini-pro' }).channel);
    expect(fromKey).toMatchObject({
      region: 'us-central1',
      projectId: 'mock-project',
      serviceAccount: { client_email: mock.serviceAccount.client_email },
    });
    const fromConfig = readVertexSettings({
      ...call({}).channel,
      key: '',
      config: {
        region: 'europe-west4',
        vertex_ai_project_id: 'p2',
        vertex_ai_adc: JSON.stringify(mock.serviceAccount),
      },
    });
    expect(fromConfig).toMatchObject({ region: 'europe-west4', projectId: 'p2' });
    const jsonOnly = readVertexSettings({
      ...call({}).channel,
      key: JSON.stringify(mock.serviceAccount),
      config: { region: 'us-east5' },
    });
    expect(jsonOnly.projectId).toBe('mock-project');
  });

  test('malformed keys are clear channel errors', () => {
    expect(() => readVertexSettings({ ...call({}).channel, key: 'just-a-key' })).toThrow(
      /region\|project_id\|<service-account JSON>/,
    );
    expect(() => readVertexSettings({ ...call({}).channel, key: 'us|p|{"client_email":"x"}' })).toThrow(
      /client_email and private_key/,
    );
    expect(() => readVertexSettings({ ...call({}).channel, key: JSON.stringify(mock.serviceAccount) })).toThrow(
      /no region/,
    );
  });

  test('the token exchange follows the channel base URL, else the key file token_uri', () => {
    expect(tokenEndpoint(mock.serviceAccount as never, 'http://127.0.0.1:1')).toBe('http://127.0.0.1:1/token');
    expect(
      tokenEndpoint({ ...mock.serviceAccount, token_uri: 'https://idp.example/oauth/token' } as never, undefined),
    ).toBe('https://idp.example/oauth/token');
  });
});

describe('vertex requests against the mock', () => {
  test('mints a token with a signed JWT and caches it', async () => {
    const settings = readVertexSettings(call({}).channel);
    const first = await vertexAccessToken(settings.serviceAccount, mock.url);
    const second = await vertexAccessToken(settings.serviceAccount, mock.url);
    expect(first).toMatch(/^ya29\.c\.mock-/);
    expect(second).toBe(first);
  });

  test('a key the token endpoint rejects is a 401 authentication error', async () => {
    const { privateKey: _unused, ...rest } = mock.serviceAccount;
    const other = {
      ...rest,
      client_email: 'other@x.iam.gserviceaccount.com',
      private_key: mock.serviceAccount.private_key,
    };
    await expect(vertexAccessToken(other as never, mock.url)).rejects.toSatisfy(
      (error: unknown) => error instanceof UpstreamError && error.status === 401 && /bad issuer/.test(error.message),
    );
  });

  test('Gemini on Vertex: publisher google, roles present, answer converted', async () => {
    const relay = call({
      model: 'gemini-1.5-pro-002',
      messages: [
        { role: 'system', content: 'terse' },
        { role: 'user', content: 'hi' },
      ],
    });
    const settings = readVertexSettings(relay.channel);
    const request = buildVertexRequest(relay, settings, await vertexAccessToken(settings.serviceAccount, mock.url));
    expect(request.url).toBe(
      `${mock.url}/v1/projects/mock-project/locations/us-central1/publishers/google/models/gemini-1.5-pro-002:generateContent`,
    );
    const answer = await sendWhole(request);
    expect(answer.status).toBe(200);
    expect(JSON.parse(readVertexResponse(answer, relay).body.toString())).toMatchObject({
      choices: [{ message: { content: 'Hello! How can I help you today?' } }],
      usage: { total_tokens: 19 },
    });
  });

  test('Claude on Vertex: publisher anthropic, rawPredict body without model, stream via streamRawPredict', async () => {
    const relay = call({
      model: 'claude-3-5-sonnet-v2@20241022',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const settings = readVertexSettings(relay.channel);
    const request = buildVertexRequest(relay, settings, await vertexAccessToken(settings.serviceAccount, mock.url));
    expect(request.url).toBe(
      `${mock.url}/v1/projects/mock-project/locations/us-central1/publishers/anthropic/models/claude-3-5-sonnet-v2%4020241022:streamRawPredict?alt=sse`,
    );
    const body = JSON.parse(String(request.body));
    expect(body).toMatchObject({ anthropic_version: 'vertex-2023-10-16', stream: true, max_tokens: 4096 });
    expect(body.model).toBeUndefined();
    const answer = await sendWhole(request);
    expect(answer.status).toBe(200);
    const result = await collect(
      readVertexStream(
        (async function* () {
          yield answer.body;
        })(),
        relay,
      ),
    );
    expect(result.content).toBe('Hello! How can I help?');
    expect(result.usage).toEqual({ prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 });
  });

  test("Claude on Vertex: an Anthropic front client's beta flag Vertex serves goes in the anthropic-beta header", async () => {
    const front = anthropicToChatRequest(
      { model: 'claude-3-7-sonnet@20250219', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] },
      { betas: ['interleaved-thinking-2025-05-14', 'claude-code-20250219'], version: '2023-06-01' },
    );
    const relay = call(front as unknown as Record<string, unknown>);
    const settings = readVertexSettings(relay.channel);
    const request = buildVertexRequest(relay, settings, await vertexAccessToken(settings.serviceAccount, mock.url));
    const answer = await sendWhole(request);
    expect(answer.status).toBe(200);
    const received = mock.requests.at(-1)!;
    expect(received.path).toMatch(/publishers\/anthropic\/models\/claude-3-7-sonnet%4020250219:rawPredict$/);
    expect(received.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14');
    expect(received.headers['anthropic-version']).toBeUndefined();
    expect(received.json).toMatchObject({ anthropic_version: 'vertex-2023-10-16' });
  });

  test('embeddings through :predict, usage from token statistics', async () => {
    const relay = call({ model: 'text-embedding-004', input: ['a', 'b'] }, 'embeddings');
    const settings = readVertexSettings(relay.channel);
    const request = buildVertexRequest(relay, settings, await vertexAccessToken(settings.serviceAccount, mock.url));
    expect(request.url).toMatch(/publishers\/google\/models\/text-embedding-004:predict$/);
    const result = readVertexResponse(await sendWhole(request), relay);
    expect(JSON.parse(result.body.toString()).data).toHaveLength(2);
    expect(result.usage).toEqual({ prompt_tokens: 5, completion_tokens: 0, total_tokens: 5 });
  });

  test('errors keep Google and Anthropic messages', () => {
    expect(
      readVertexError({ status: 403, headers: {}, body: fixtureBytes('vertexai', 'error-permission-denied.json') }),
    ).toMatchObject({
      status: 403,
      type: 'PERMISSION_DENIED',
      message: expect.stringContaining('aiplatform.endpoints.predict'),
    });
    expect(
      readVertexError({ status: 429, headers: {}, body: fixtureBytes('anthropic', 'error-rate-limit.json') }),
    ).toMatchObject({ status: 429, type: 'rate_limit_error' });
  });
});
