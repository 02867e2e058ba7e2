import { describe, expect, test } from 'vitest';
import { awsMockCredentials, awsMockKey, startAwsMock } from '../../../../test/mock-upstreams/aws.js';
import { fixtureBytes } from '../../../../test/mock-upstreams/mock-kit.js';
import { collect } from '../../../../test/mock-upstreams/relay-call-kit.js';
import { weatherTool } from '../../../../test/chat-fixtures.js';
import { relayCall } from '../../../../test/relay-call.js';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';
import { anthropicToChatRequest } from '../../fronts/anthropic/request.js';
import { UpstreamError } from '../../upstream-error.js';
import { invokeBedrock, invokeBedrockStream } from './client.js';
import { buildBedrockInvocation, llamaPrompt, readBedrockCredentials } from './request.js';
import { readBedrockAnswer } from './response.js';
import { readBedrockStream } from './stream.js';

async function* linesOf(name: string) {
  for (const line of fixtureBytes('aws', name).toString('utf8').trim().split('\n')) yield Buffer.from(`${line}\n`);
}

describe('bedrock credentials and bodies', () => {
  const channel = relayCall({ body: {}, key: awsMockKey }).channel;

  test('key AK|SK|Region or config ak/sk/region', () => {
    expect(readBedrockCredentials(channel)).toEqual(awsMockCredentials);
    expect(readBedrockCredentials({ ...channel, key: '', config: { ak: 'a', sk: 's', region: 'eu-west-1' } })).toEqual({
      accessKeyId: 'a',
      secretAccessKey: 's',
      region: 'eu-west-1',
    });
  });

  test('bad keys are clear channel errors', () => {
    expect(() => readBedrockCredentials({ ...channel, key: 'only-one-part' })).toThrow(
      /AccessKeyId\|SecretAccessKey\|Region/,
    );
    expect(() => readBedrockCredentials({ ...channel, key: 'a|b|not a region' })).toThrow(/not a region name/);
  });

  test('Claude body: Messages body without model and stream, Bedrock version', () => {
    const invocation = buildBedrockInvocation(
      relayCall({
        body: { model: 'claude-3-haiku-20240307', stream: true, messages: [{ role: 'user', content: 'hi' }] },
      }),
    );
    expect(invocation.modelId).toBe('anthropic.claude-3-haiku-20240307-v1:0');
    expect(JSON.parse(invocation.body)).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 4096,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
  });

  test('Llama body: the Llama 3 chat template', () => {
    const request = {
      model: 'llama3-8b-8192',
      messages: [
        { role: 'system' as const, content: 'terse' },
        { role: 'user' as const, content: 'hi' },
      ],
    };
    expect(llamaPrompt(request)).toBe(
      '<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nterse<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nhi<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n',
    );
    const invocation = buildBedrockInvocation(relayCall({ body: { ...request, max_tokens: 64, temperature: 0.2 } }));
    expect(invocation.modelId).toBe('meta.llama3-8b-instruct-v1:0');
    expect(JSON.parse(invocation.body)).toMatchObject({ max_gen_len: 64, temperature: 0.2 });
  });

  test('unknown models are refused, raw Bedrock ids accepted', () => {
    expect(() => buildBedrockInvocation(relayCall({ body: { model: 'gpt-4', messages: [] } }))).toThrow(
      /not supported on AWS Bedrock/,
    );
    expect(
      buildBedrockInvocation(
        relayCall({ body: { model: 'us.anthropic.claude-3-5-haiku-20241022-v1:0', messages: [] } }),
      ).family,
    ).toBe('claude');
  });
});

describe('bedrock answers and streams', () => {
  test('Claude and Llama whole answers', () => {
    const claude = JSON.parse(
      readBedrockAnswer(
        fixtureBytes('aws', 'claude-tool-use.json'),
        relayCall({ body: { model: 'claude-3-haiku-20240307' } }),
      ).body.toString(),
    );
    expect(claude.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: {
        tool_calls: [{ id: 'toolu_bdrk_01', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
      },
    });
    const llama = readBedrockAnswer(
      fixtureBytes('aws', 'llama.json'),
      relayCall({ body: { model: 'llama3-8b-8192' } }),
    );
    expect(JSON.parse(llama.body.toString()).choices[0].message.content).toBe('Hello from Llama!');
    expect(llama.usage).toEqual({ prompt_tokens: 15, completion_tokens: 5, total_tokens: 20 });
  });

  test('Claude stream payloads', async () => {
    const result = await collect(
      readBedrockStream(
        linesOf('claude-tool-stream.jsonl'),
        relayCall({ body: { model: 'claude-3-haiku-20240307', stream: true } }),
      ),
    );
    expect(result.toolCalls).toEqual([{ id: 'toolu_bdrk_01', name: 'get_weather', arguments: '{"city":"Paris"}' }]);
    expect(result.usage).toEqual({ prompt_tokens: 380, completion_tokens: 40, total_tokens: 420 });
  });

  test('Llama stream payloads', async () => {
    const result = await collect(
      readBedrockStream(
        linesOf('llama-stream.jsonl'),
        relayCall({ body: { model: 'llama3-70b-8192', stream: true, stream_options: { include_usage: true } } }),
      ),
    );
    expect(result.content).toBe('Hello from Llama!');
    expect(result.finishReason).toBe('stop');
    expect(result.usage).toEqual({ prompt_tokens: 15, completion_tokens: 5, total_tokens: 20 });
  });
});

describe('bedrock through the AWS SDK against the mock', () => {
  const mock = startedForSuite(() => startAwsMock());
  const call = (body: Record<string, unknown>, key = awsMockKey) =>
    relayCall({ body, key, type: 33, baseUrl: mock.url });

  test('InvokeModel, signed with SigV4', async () => {
    const relay = call({
      model: 'claude-3-haiku-20240307',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [weatherTool],
    });
    const result = readBedrockAnswer(await invokeBedrock(relay), relay);
    expect(JSON.parse(result.body.toString()).choices[0].finish_reason).toBe('tool_calls');
    expect(mock.requests.at(-1)?.path).toBe('/model/anthropic.claude-3-haiku-20240307-v1%3A0/invoke');
  });

  test('InvokeModelWithResponseStream through the binary event stream', async () => {
    const relay = call({ model: 'claude-3-haiku-20240307', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const result = await collect(readBedrockStream(await invokeBedrockStream(relay), relay));
    expect(result.content).toBe('Hello from Bedrock!');
    expect(result.usage).toEqual({ prompt_tokens: 14, completion_tokens: 6, total_tokens: 20 });
    const llama = call({ model: 'llama3-8b-8192', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    expect((await collect(readBedrockStream(await invokeBedrockStream(llama), llama))).content).toBe(
      'Hello from Llama!',
    );
  });

  test('an exception inside the stream becomes an error chunk', async () => {
    const relay = call({
      model: 'claude-3-haiku-20240307',
      stream: true,
      messages: [{ role: 'user', content: 'THROTTLE ME' }],
    });
    const result = await collect(readBedrockStream(await invokeBedrockStream(relay), relay));
    expect(result.chunks.at(-1)).toMatchObject({
      error: { message: 'Too many requests, please wait before trying again.', type: 'ThrottlingException' },
    });
  });

  test("an Anthropic front client's beta flag Bedrock serves goes in the signed body as anthropic_beta", async () => {
    const front = anthropicToChatRequest(
      { model: 'claude-3-haiku-20240307', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] },
      { betas: ['claude-code-20250219', 'interleaved-thinking-2025-05-14'] },
    );
    const relay = call(front as unknown as Record<string, unknown>);
    const result = readBedrockAnswer(await invokeBedrock(relay), relay);
    expect(result.status).toBe(200);
    expect(mock.requests.at(-1)?.json).toMatchObject({
      anthropic_version: 'bedrock-2023-05-31',
      anthropic_beta: ['interleaved-thinking-2025-05-14'],
    });
  });

  test('a wrong secret fails the signature check: 403 with AWS message', async () => {
    const relay = call(
      { model: 'claude-3-haiku-20240307', messages: [{ role: 'user', content: 'hi' }] },
      `${awsMockCredentials.accessKeyId}|wrong-secret|us-east-1`,
    );
    await expect(invokeBedrock(relay)).rejects.toSatisfy(
      (error: unknown) =>
        error instanceof UpstreamError &&
        error.status === 403 &&
        error.message.includes('signature we calculated does not match'),
    );
  });
});
