import { describe, expect, test } from 'vitest';
import type { ChatCompletion } from '../../adaptors/openai-kit/chat-types.js';
import { chatCompletionToResponse, inputItemWithId, responsesUsage } from './response.js';

const completion = (message: ChatCompletion['choices'][number]['message'], finishReason: string): ChatCompletion => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'upstream-model',
  choices: [{ index: 0, message, finish_reason: finishReason }],
  usage: { prompt_tokens: 10, completion_tokens: 4, total_tokens: 14 },
});

const context = {
  id: 'resp_1',
  createdAt: 1700000000,
  request: { model: 'gpt-4.1', instructions: 'Be brief.', previous_response_id: 'resp_0', store: false },
};

describe('chat completions as Responses response objects', () => {
  test('text and tool calls become a message item and function_call items', () => {
    const response = chatCompletionToResponse(
      completion(
        {
          role: 'assistant',
          content: 'Checking.',
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
        },
        'tool_calls',
      ),
      context,
    );
    expect(response).toMatchObject({
      id: 'resp_1',
      object: 'response',
      created_at: 1700000000,
      status: 'completed',
      incomplete_details: null,
      model: 'gpt-4.1',
      instructions: 'Be brief.',
      previous_response_id: 'resp_0',
      store: false,
      usage: { input_tokens: 10, output_tokens: 4, total_tokens: 14 },
    });
    expect(response.output).toEqual([
      {
        type: 'message',
        id: expect.stringMatching(/^msg_/),
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Checking.', annotations: [], logprobs: [] }],
      },
      {
        type: 'function_call',
        id: expect.stringMatching(/^fc_/),
        call_id: 'call_1',
        name: 'f',
        arguments: '{"a":1}',
        status: 'completed',
      },
    ]);
  });

  test('reasoning_content comes first, as a reasoning item with its summary', () => {
    const response = chatCompletionToResponse(
      completion({ role: 'assistant', content: 'Hi.', reasoning_content: 'A greeting.' }, 'stop'),
      context,
    );
    expect(response.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
    expect(response.output[0]).toMatchObject({ summary: [{ type: 'summary_text', text: 'A greeting.' }] });
  });

  test('finish_reason length leaves the response incomplete for max_output_tokens', () => {
    const response = chatCompletionToResponse(completion({ role: 'assistant', content: 'cut' }, 'length'), context);
    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(response.output[0]).toMatchObject({ status: 'incomplete' });
  });

  test('cached prompt tokens and reasoning tokens are reported; broken counts read as zero', () => {
    expect(
      responsesUsage({
        prompt_tokens: 100,
        completion_tokens: 30,
        total_tokens: 130,
        prompt_tokens_details: { cached_tokens: 64 },
        completion_tokens_details: { reasoning_tokens: 12 },
      }),
    ).toEqual({
      input_tokens: 100,
      input_tokens_details: { cached_tokens: 64 },
      output_tokens: 30,
      output_tokens_details: { reasoning_tokens: 12 },
      total_tokens: 130,
    });
    expect(responsesUsage({ prompt_tokens: Number.NaN, prompt_tokens_details: { cached_tokens: 'x' } })).toMatchObject({
      input_tokens: 0,
      input_tokens_details: { cached_tokens: 0 },
      total_tokens: 0,
    });
  });

  test('stored input items get an id when the client sent none', () => {
    expect(inputItemWithId({ role: 'user', content: 'hi' })).toEqual({
      id: expect.stringMatching(/^msg_/),
      role: 'user',
      content: 'hi',
    });
    expect(inputItemWithId({ type: 'function_call_output', call_id: 'c', output: '1' }).id).toMatch(/^item_/);
    expect(inputItemWithId({ type: 'message', id: 'msg_mine' }).id).toBe('msg_mine');
  });
});
