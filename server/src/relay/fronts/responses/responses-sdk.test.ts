import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ChatCompletion } from '../../adaptors/openai-kit/chat-types.js';
import { parseSseText } from '../../adaptors/openai-kit/sse-events.js';
import { chatCompletionToResponse, responseId } from './response.js';
import { ResponsesEventWriter } from './stream.js';
import type { ResponsesRequest } from './types.js';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

const weatherCall: ChatCompletion = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-4.1',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: 'Let me look.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        ],
      },
      finish_reason: 'tool_calls',
    },
  ],
  usage: { prompt_tokens: 20, completion_tokens: 9, total_tokens: 29 },
};

/** A reasoning model's chat stream (DeepSeek's `reasoning_content`), then its answer. */
const reasoningStream = [
  { reasoning_content: 'Greeted; ' },
  { reasoning_content: 'greet back.' },
  { content: 'Hello!' },
]
  .map((delta, index, deltas) => {
    const finishReason = index === deltas.length - 1 ? 'stop' : null;
    return `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
  })
  .join('')
  .concat('data: [DONE]\n\n');

/**
 * A stand-in for the gateway's Responses front: it answers with what the converters make of recorded chat
 * answers, so the official SDK's parser judges our JSON and our event stream.
 */
function converterServer(): Server {
  return createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    request.on('end', () => {
      const body = JSON.parse(raw) as ResponsesRequest;
      const context = { id: responseId(), createdAt: Math.floor(Date.now() / 1000), request: body };
      if (!body.stream) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(chatCompletionToResponse(weatherCall, context)));
        return;
      }
      const writer = new ResponsesEventWriter(context);
      const recorded = body.reasoning
        ? reasoningStream
        : fixture(body.tools ? 'chat-function-call-stream.sse' : 'chat-text-stream.sse');
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const { data } of parseSseText(recorded)) response.write(writer.payload(data));
      response.end();
    });
  });
}

describe('the official openai SDK reads what the Responses converters write', () => {
  let server: Server;
  let client: OpenAI;
  beforeAll(async () => {
    server = converterServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    client = new OpenAI({
      apiKey: 'sk-test',
      baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
      maxRetries: 0,
    });
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('a whole response: text and a function call, usage in its words', async () => {
    const response = await client.responses.create({ model: 'gpt-4.1', input: 'weather in Paris?' });
    expect(response.id).toMatch(/^resp_/);
    expect(response.status).toBe('completed');
    expect(response.output_text).toBe('Let me look.');
    expect(response.output[1]).toMatchObject({
      type: 'function_call',
      call_id: 'call_1',
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
    });
    expect(response.usage).toMatchObject({ input_tokens: 20, output_tokens: 9, total_tokens: 29 });
  });

  test('a streamed text response: the deltas and finalResponse() agree', async () => {
    const stream = client.responses.stream({ model: 'gpt-4.1', input: 'hi' });
    let text = '';
    stream.on('response.output_text.delta', (event) => (text += event.delta));
    const final = await stream.finalResponse();
    expect(text).toBe('Hi there! How can I help?');
    expect(final.output_text).toBe(text);
    expect(final.usage).toMatchObject({ input_tokens: 37, output_tokens: 11, total_tokens: 48 });
  });

  test('a streamed function call through create({stream:true}) and through stream()', async () => {
    const tools = [{ type: 'function' as const, name: 'get_weather', parameters: { type: 'object' }, strict: false }];
    const types: string[] = [];
    for await (const event of await client.responses.create({ model: 'gpt-4.1', input: 'hi', tools, stream: true }))
      types.push(event.type);
    expect(types.at(-1)).toBe('response.completed');
    expect(types).toContain('response.function_call_arguments.done');
    const final = await client.responses.stream({ model: 'gpt-4.1', input: 'hi', tools }).finalResponse();
    expect(final.output).toEqual([
      expect.objectContaining({
        type: 'function_call',
        call_id: 'call_12345xyz',
        name: 'get_weather',
        arguments: '{"location":"Paris, France"}',
        status: 'completed',
      }),
    ]);
  });

  test('a streamed reasoning summary, then the text', async () => {
    const stream = client.responses.stream({ model: 'deepseek-reasoner', input: 'hi', reasoning: { summary: 'auto' } });
    let summary = '';
    stream.on('response.reasoning_summary_text.delta', (event) => (summary += event.delta));
    const final = await stream.finalResponse();
    expect(summary).toBe('Greeted; greet back.');
    expect(final.output_text).toBe('Hello!');
    expect(final.status).toBe('completed');
    expect(final.output[0]).toMatchObject({ type: 'reasoning', summary: [{ type: 'summary_text', text: summary }] });
  });
});

test('response ids keep OpenAI’s shape, differ within a millisecond, and sort in the order they were made', async () => {
  const first = [responseId(), responseId()];
  await new Promise((resolve) => setTimeout(resolve, 2));
  const later = responseId();
  for (const id of [...first, later]) expect(id).toMatch(/^resp_[0-9a-f]{48}$/);
  expect(first[0]).not.toBe(first[1]);
  // Stored responses are keyed by id: new keys land together at the end of the key's index.
  expect(later > first[0]! && later > first[1]!).toBe(true);
});
