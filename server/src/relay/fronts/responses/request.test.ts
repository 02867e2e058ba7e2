import { readFileSync } from 'node:fs';
import { responsesBodyProblem, responsesCreateBody } from '@modelgate/wire';
import { describe, expect, test } from 'vitest';
import { ResponsesRequestError } from './errors.js';
import { inputItemsOf, responsesToChatRequest } from './request.js';
import type { ResponsesRequest } from './types.js';

const codexRequest = JSON.parse(
  readFileSync(new URL('./__fixtures__/codex-0.169.0-request.json', import.meta.url), 'utf8'),
) as ResponsesRequest;

const refusal = (request: ResponsesRequest): ResponsesRequestError => {
  try {
    responsesToChatRequest(request);
  } catch (error) {
    if (error instanceof ResponsesRequestError) return error;
    throw error;
  }
  throw new Error('the request was converted');
};

describe('Responses requests as chat requests', () => {
  test("Codex CLI 0.169's first request: developer and user messages, function tools kept, the rest listed", () => {
    const { chat, dropped } = responsesToChatRequest(codexRequest);
    expect(chat.model).toBe('gpt-5-codex');
    expect(chat.messages.map((message) => message.role)).toEqual(['system', 'system', 'user', 'user']);
    expect(chat.messages[1]!.content).toMatch(/^<skills_instructions>[^]*\n<permissions instructions>/);
    expect(chat.messages[3]).toEqual({ role: 'user', content: 'say hi' });
    expect(chat.tools).toEqual([
      {
        type: 'function',
        function: expect.objectContaining({ name: 'exec_command', strict: false, parameters: expect.any(Object) }),
      },
    ]);
    expect(chat).toMatchObject({ tool_choice: 'auto', parallel_tool_calls: true, stream: true });
    expect(chat.stream_options).toEqual({ include_usage: true });
    expect(dropped).toEqual(['tools.1 (namespace multi_agent_v1)', 'tools.2 (web_search)']);
    // Responses-only fields never reach a chat upstream.
    for (const field of ['input', 'store', 'include', 'prompt_cache_key', 'reasoning', 'client_metadata'])
      expect(chat).not.toHaveProperty(field);
  });

  test('a string input is one user message, after the instructions', () => {
    expect(responsesToChatRequest({ model: 'm', input: 'hello', instructions: 'Be brief.' }).chat.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hello' },
    ]);
    expect(inputItemsOf('hello')).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello' }] },
    ]);
  });

  test('a tool loop: assistant text and its calls are one turn, outputs are tool messages, reasoning is dropped', () => {
    const { chat, dropped } = responsesToChatRequest({
      model: 'm',
      input: [
        { role: 'user', content: 'weather in Paris and Rome?' },
        { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'opaque' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Looking.' }] },
        { type: 'function_call', call_id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call', call_id: 'call_2', name: 'weather', arguments: '{"city":"Rome"}' },
        { type: 'function_call_output', call_id: 'call_1', output: '18C' },
        { type: 'function_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: '24C' }] },
      ],
    });
    expect(chat.messages).toEqual([
      { role: 'user', content: 'weather in Paris and Rome?' },
      {
        role: 'assistant',
        content: 'Looking.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_2', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '18C' },
      { role: 'tool', tool_call_id: 'call_2', content: '24C' },
    ]);
    expect(dropped).toEqual([]);
  });

  test('calls without text make an assistant message with null content', () => {
    const { chat } = responsesToChatRequest({
      model: 'm',
      input: [
        { role: 'user', content: 'go' },
        { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
      ],
    });
    expect(chat.messages[1]).toMatchObject({ role: 'assistant', content: null, tool_calls: [{ id: 'c' }] });
  });

  test('images and files become chat parts', () => {
    const { chat } = responsesToChatRequest({
      model: 'm',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'what is this?' },
            { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'low' },
            { type: 'input_file', filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBE' },
          ],
        },
      ],
    });
    expect(chat.messages[0]!.content).toEqual([
      { type: 'text', text: 'what is this?' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: 'low' } },
      { type: 'file', file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBE' } },
    ]);
  });

  test('settings: tool_choice, text.format, reasoning effort, output limit and sampling', () => {
    const { chat } = responsesToChatRequest({
      model: 'm',
      input: 'x',
      tools: [{ type: 'function', name: 'f', description: 'does f', parameters: { type: 'object' } }],
      tool_choice: { type: 'function', name: 'f' },
      parallel_tool_calls: false,
      text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true } },
      reasoning: { effort: 'low' },
      max_output_tokens: 100,
      temperature: 0.2,
      top_p: 0.9,
      user: 'u-1',
      metadata: { trace: 't' },
    });
    expect(chat).toMatchObject({
      tools: [{ type: 'function', function: { name: 'f', description: 'does f', parameters: { type: 'object' } } }],
      tool_choice: { type: 'function', function: { name: 'f' } },
      parallel_tool_calls: false,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'answer', schema: { type: 'object' }, strict: true },
      },
      reasoning_effort: 'low',
      max_completion_tokens: 100,
      temperature: 0.2,
      top_p: 0.9,
      user: 'u-1',
    });
    expect(chat).not.toHaveProperty('max_tokens');
    expect(chat).not.toHaveProperty('metadata');
    expect(responsesToChatRequest({ model: 'm', input: 'x', max_output_tokens: 50 }).chat.max_tokens).toBe(50);
    expect(
      responsesToChatRequest({ model: 'm', input: 'x', text: { format: { type: 'json_object' } } }).chat,
    ).toMatchObject({ response_format: { type: 'json_object' } });
  });

  test('a hosted tool choice and hosted input items are dropped and listed', () => {
    const { chat, dropped } = responsesToChatRequest({
      model: 'm',
      input: [
        { role: 'user', content: 'search' },
        { type: 'web_search_call', id: 'ws_1', status: 'completed' },
      ],
      tools: [{ type: 'function', name: 'f' }, { type: 'file_search' }],
      tool_choice: { type: 'file_search' },
    });
    expect(chat.tool_choice).toBeUndefined();
    expect(dropped).toEqual(['input.1 (web_search_call)', 'tools.1 (file_search)', 'tool_choice (file_search)']);
  });

  test('errors name the field', () => {
    expect(
      refusal({
        model: 'm',
        input: [
          { role: 'user', content: 'a' },
          { role: 'user', content: [{ type: 'input_audio' }] },
        ],
      }).message,
    ).toBe("input.1.content.0.type: unsupported content type 'input_audio'");
    expect(refusal({ model: 'm', input: [{ role: 'tool', content: 'a' }] }).param).toBe('input.0.role');
    expect(refusal({ model: 'm', input: [{ type: 'function_call', name: 'f', arguments: '{}' }] }).param).toBe(
      'input.0.call_id',
    );
    expect(
      refusal({ model: 'm', input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'f' }] }] }).param,
    ).toBe('input.0.content.0.image_url');
    expect(refusal({ model: 'm', input: 'x', text: { format: { type: 'grammar' } } }).param).toBe('text.format.type');
  });
});

describe('the Responses request schema', () => {
  const problem = (body: unknown) => {
    const checked = responsesCreateBody.safeParse(body);
    return checked.success ? undefined : responsesBodyProblem(checked.error);
  };

  test("accepts Codex CLI 0.169's request and the SDKs' easy input", () => {
    expect(problem(codexRequest)).toBeUndefined();
    expect(problem({ model: 'm', input: [{ role: 'user', content: 'hi' }], store: false })).toBeUndefined();
  });

  test('names the offending field', () => {
    expect(problem({ input: 'hi' })).toMatchObject({ param: 'model' });
    expect(problem({ model: 'm', input: [{ role: 'user', content: 5 }] })).toEqual({
      param: 'input.0.content',
      detail: expect.stringMatching(/expected string/),
    });
    expect(problem({ model: 'm', max_output_tokens: -1 })).toMatchObject({ param: 'max_output_tokens' });
  });
});
