import { readFileSync } from 'node:fs';
import { geminiGenerateContentBody } from '@modelgate/wire';
import { describe, expect, test } from 'vitest';
import { geminiToEmbeddingsRequest } from './embeddings.js';
import { withCamelCaseFields } from './field-names.js';
import { geminiToChatRequest } from './request.js';
import type { GeminiFrontRequest } from './types.js';

/** Gemini CLI 0.61.0's second request of a read_file turn, as captured (long texts and tool list trimmed). */
const cliRequest = JSON.parse(
  readFileSync(new URL('./__fixtures__/gemini-cli-0.61.0-request.json', import.meta.url), 'utf8'),
) as { body: unknown };

const parse = (body: unknown) => geminiGenerateContentBody.parse(withCamelCaseFields(body)) as GeminiFrontRequest;

describe('a generateContent request converted to an OpenAI chat request', () => {
  test('a tool turn: calls matched to their answers by id, else by name; tools in JSON Schema words', () => {
    const request = parse({
      systemInstruction: { parts: [{ text: 'You are terse.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Paris and Rome?' }] },
        {
          role: 'model',
          parts: [
            { text: 'Checking.' },
            { functionCall: { id: 'fc-1', name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'c2ln' },
            { functionCall: { name: 'get_weather', args: { city: 'Rome' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'get_weather', response: { output: 'rain' } } },
            { functionResponse: { id: 'fc-1', name: 'get_weather', response: { output: 'sun' } } },
          ],
        },
      ],
      tools: [
        {
          functionDeclarations: [
            {
              name: 'get_weather',
              description: 'Weather of a city',
              parameters: {
                type: 'OBJECT',
                properties: { city: { type: 'STRING', nullable: true } },
                required: ['city'],
                propertyOrdering: ['city'],
              },
            },
            { name: 'read_file', parametersJsonSchema: { type: 'object', properties: { path: { type: 'string' } } } },
          ],
        },
        { googleSearch: {} },
      ],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } },
      generationConfig: { temperature: 0.2, topP: 0.9, topK: 40, maxOutputTokens: 100, thinkingConfig: {} },
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
    });
    const { chat, dropped, system } = geminiToChatRequest(request, 'gemini-2.5-pro', true);
    expect(chat.messages).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Weather in Paris and Rome?' },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          { id: 'fc-1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_1_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
        ],
      },
      // The answer naming fc-1 takes it, though it comes second; the unnamed one takes Rome's call.
      { role: 'tool', tool_call_id: 'call_1_2', content: '{"output":"rain"}' },
      { role: 'tool', tool_call_id: 'fc-1', content: '{"output":"sun"}' },
    ]);
    expect(system).toBe(chat.messages[0]);
    expect(chat.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Weather of a city',
          parameters: { type: 'object', properties: { city: { type: ['string', 'null'] } }, required: ['city'] },
        },
      },
      {
        type: 'function',
        function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
      },
    ]);
    expect(chat.tool_choice).toEqual({ type: 'function', function: { name: 'get_weather' } });
    expect(chat).toMatchObject({ temperature: 0.2, top_p: 0.9, max_tokens: 100, stream: true });
    expect(chat.stream_options).toEqual({ include_usage: true });
    expect(dropped).toEqual([
      'safetySettings',
      'contents[1].parts[1].thoughtSignature',
      'tools[1].googleSearch',
      'generationConfig.topK',
    ]);
  });

  test('snake_case fields (as in Google’s curl examples) read as camelCase; media parts as OpenAI parts', () => {
    const request = parse({
      system_instruction: { parts: [{ text: 'Be brief.' }] },
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'What is this?' },
            { inline_data: { mime_type: 'image/png', data: 'iVBORw0=' } },
            { inline_data: { mime_type: 'text/plain', data: Buffer.from('notes').toString('base64') } },
            { inline_data: { mime_type: 'video/mp4', data: 'AAAA' } },
          ],
        },
      ],
      generation_config: {
        response_mime_type: 'application/json',
        response_schema: { type: 'ARRAY', items: { type: 'STRING' } },
      },
    });
    const { chat, dropped } = geminiToChatRequest(request, 'gemini-2.5-flash', false);
    expect(chat.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0=' } },
          { type: 'text', text: 'notes' },
        ],
      },
    ]);
    expect(chat.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'response', schema: { type: 'array', items: { type: 'string' } } },
    });
    expect(chat.stream).toBeUndefined();
    expect(dropped).toEqual(['contents[0].parts[3].inlineData']);
  });

  test("Gemini CLI's own request: its tools, its read_file call answered by id, what other channels lose", () => {
    const { chat, dropped } = geminiToChatRequest(parse(cliRequest.body), 'gemini-2.5-flash', true);
    expect(chat.tools?.map((tool) => tool.function.name)).toEqual(['update_topic', 'list_directory', 'read_file']);
    expect(chat.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(chat.messages[2]!.tool_calls).toEqual([
      {
        id: 'read_file_1795644895108_0',
        type: 'function',
        function: { name: 'read_file', arguments: '{"file_path":"/home/user/project/notes.txt"}' },
      },
    ]);
    expect(chat.messages[3]).toEqual({
      role: 'tool',
      tool_call_id: 'read_file_1795644895108_0',
      content: '{"output":"the secret word is periwinkle\\n"}',
    });
    expect(chat).toMatchObject({ temperature: 1, top_p: 0.95, stream: true });
    expect(dropped).toEqual(['contents[1].parts[0].thoughtSignature', 'generationConfig.topK']);
    // Its thinking budget (8,192) is OpenAI's medium effort; Claude and Gemini channels take it back as a budget.
    expect((chat as { reasoning_effort?: string }).reasoning_effort).toBe('medium');
  });

  test('an answer whose id no call has goes to the open call of its name', () => {
    const { chat } = geminiToChatRequest(
      parse({
        contents: [
          { role: 'user', parts: [{ text: 'Read it.' }] },
          { role: 'model', parts: [{ functionCall: { name: 'read_file', args: {} } }] },
          {
            role: 'user',
            parts: [{ functionResponse: { id: 'read_file_9_0', name: 'read_file', response: { output: 'x' } } }],
          },
        ],
      }),
      'm',
      false,
    );
    expect(chat.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_1_0', content: '{"output":"x"}' });
  });

  test('a body the schema refuses names the field in Google’s spelling', async () => {
    const { geminiBodyProblem } = await import('@modelgate/wire');
    const checked = geminiGenerateContentBody.safeParse({ contents: [{ role: 'user', parts: [{ text: 7 }] }] });
    expect(checked.success).toBe(false);
    expect(geminiBodyProblem(checked.error!)).toEqual({
      field: 'contents[0].parts[0].text',
      message: "Invalid value at 'contents[0].parts[0].text': Invalid input: expected string, received number",
    });
  });
});

describe('embedding requests converted to one OpenAI embeddings request', () => {
  test('batchEmbedContents: one input per request; taskType and title have no OpenAI form', () => {
    const { request, dropped } = geminiToEmbeddingsRequest(
      [
        {
          content: { parts: [{ text: 'a' }, { text: 'b' }] },
          taskType: 'RETRIEVAL_DOCUMENT',
          title: 'T',
          outputDimensionality: 8,
        },
        { content: { parts: [{ text: 'c' }] }, outputDimensionality: 8 },
      ],
      'text-embedding-004',
      (index) => `requests[${index}].`,
    );
    expect(request).toEqual({
      model: 'text-embedding-004',
      input: ['a\nb', 'c'],
      encoding_format: 'float',
      dimensions: 8,
    });
    expect(dropped).toEqual(['requests[0].taskType', 'requests[0].title']);
  });
});
