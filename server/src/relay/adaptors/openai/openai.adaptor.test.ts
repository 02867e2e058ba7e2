import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { RelayCall } from '../../adaptor.js';
import { azure } from '../azure/index.js';
import { compatibleAdaptors } from '../compatible/index.js';
import { openai } from './index.js';
import { readErrorBody } from './response.js';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

function call(overrides: Partial<RelayCall> = {}): RelayCall {
  const value = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] };
  return {
    mode: 'chat',
    path: '/v1/chat/completions',
    query: '',
    model: 'gpt-4o',
    stream: false,
    body: { kind: 'json', value, raw: Buffer.from(' {"model":"gpt-4o"} '), changed: false },
    channel: { id: 1, type: 1, name: 'c', key: 'sk-secret', baseUrl: 'https://api.openai.com', config: {} },
    clientHeaders: {},
    ...overrides,
  };
}

async function* chunksOf(buffer: Buffer, size: number) {
  for (let offset = 0; offset < buffer.length; offset += size) yield buffer.subarray(offset, offset + size);
}

describe('openai adaptor', () => {
  test('builds the request: base + front path, Bearer key, the client bytes when unchanged', () => {
    const request = openai.buildRequest(call({ query: 'x=1' }));
    expect(request).toMatchObject({ url: 'https://api.openai.com/v1/chat/completions?x=1', method: 'POST' });
    expect(request.headers).toMatchObject({
      authorization: 'Bearer sk-secret',
      'content-type': 'application/json',
      accept: 'application/json',
    });
    expect(String(request.body)).toBe(' {"model":"gpt-4o"} ');
    const changed = call({
      stream: true,
      body: { kind: 'json', value: { model: 'm', stream: true }, raw: Buffer.from('{}'), changed: true },
    });
    expect(openai.buildRequest(changed).body).toBe('{"model":"m","stream":true}');
    expect(openai.buildRequest(changed).headers.accept).toBe('text/event-stream');
  });

  test('reads a recorded answer: body unchanged, usage and text for billing', () => {
    const body = fixture('chat-completion.json');
    const result = openai.readResponse(
      { status: 200, headers: { 'content-type': 'application/json', 'set-cookie': 'x' }, body },
      call(),
    );
    expect(result.body).toBe(body);
    expect(result.usage).toEqual({ prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 });
    expect(result.text).toBe('Hello!');
    expect(result.headers).toEqual({ 'content-type': 'application/json' });
  });

  test('passes a recorded stream through, dropping the Azure prelude and comments, whatever the chunking', async () => {
    const sse = fixture('chat-stream.sse');
    for (const size of [7, 64, sse.length]) {
      const chunks = [];
      for await (const chunk of openai.readStream(chunksOf(sse, size), call({ stream: true }))) chunks.push(chunk);
      expect(chunks).toHaveLength(4);
      expect(chunks.map((chunk) => chunk.text ?? '').join('')).toBe('Hello!');
      expect(chunks.at(-1)!.usage).toEqual({ prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 });
    }
  });

  test('reads errors: OpenAI objects as they are, others by one-api’s rule', () => {
    expect(readErrorBody(404, fixture('error-azure.json'))).toEqual({
      status: 404,
      message: 'The API deployment for this resource does not exist.',
      type: 'upstream_error',
      param: null,
      code: 'DeploymentNotFound',
    });
    expect(readErrorBody(500, Buffer.from('{"msg":"busy"}'))).toMatchObject({
      message: 'busy',
      code: 'bad_response_status_code',
      param: '500',
    });
    expect(readErrorBody(502, Buffer.from('<html>'))).toMatchObject({ message: 'bad response status code 502' });
  });

  test('vendors: Azure deployments, fixed paths and /v1 stripping are settings', () => {
    const azureRequest = azure.buildRequest(
      call({
        model: 'gpt-3.5-turbo',
        channel: { ...call().channel, baseUrl: 'https://r.openai.azure.com', config: { api_version: '2024-06-01' } },
      }),
    );
    expect(azureRequest.url).toBe(
      'https://r.openai.azure.com/openai/deployments/gpt-35-turbo/chat/completions?api-version=2024-06-01',
    );
    expect(azureRequest.headers['api-key']).toBe('sk-secret');
    const novita = compatibleAdaptors.novita.buildRequest(
      call({ channel: { ...call().channel, baseUrl: 'https://novita.example/v3/openai' } }),
    );
    expect(novita.url).toBe('https://novita.example/v3/openai/chat/completions');
    const generic = compatibleAdaptors.openaiCompatible.buildRequest(
      call({ channel: { ...call().channel, baseUrl: 'https://host/v1' } }),
    );
    expect(generic.url).toBe('https://host/v1/chat/completions');
    expect(compatibleAdaptors.openrouter.buildRequest(call()).headers['X-Title']).toBe('One API');
  });
});
