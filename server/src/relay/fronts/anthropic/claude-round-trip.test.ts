import { describe, expect, test } from 'vitest';
import { parseAnthropicEvents } from '../../../../test/anthropic-events.js';
import { claudeCodeFirstRequest, toolLoop, toolLoopForOpenAI } from '../../../../test/claude-code-tool-loop.js';
import { fixture, fixtureJson, fixtureBytes } from '../../../../test/mock-upstreams/mock-kit.js';
import { pieces } from '../../../../test/mock-upstreams/relay-call-kit.js';
import type { RelayCall } from '../../adaptor.js';
import { buildAnthropicRequest } from '../../adaptors/anthropic/request.js';
import { readAnthropicResponse } from '../../adaptors/anthropic/response.js';
import { nativeRelayed } from '../../../../test/native-road-kit.js';
import { claudeRequestOriginal } from '../../adaptors/anthropic/claude-original.js';
import { readAnthropicStream } from '../../adaptors/anthropic/stream.js';
import type { ClaudeCacheControl, ClaudeContentBlock, ClaudeResponse } from '../../adaptors/anthropic/types.js';
import { buildBedrockInvocation } from '../../adaptors/aws/request.js';
import { readBedrockAnswer } from '../../adaptors/aws/response.js';
import type { ChatRequest } from '../../adaptors/openai-kit/chat-types.js';
import { openai } from '../../adaptors/openai/index.js';
import { buildVertexRequest, vertexBody } from '../../adaptors/vertexai/request.js';
import type { VertexSettings } from '../../adaptors/vertexai/types.js';
import { prepareBody } from '../../pipeline/prepare-body.js';
import type { RoutedChannel } from '../../routing/channel-router.js';
import { anthropicClientHeaders } from './client-headers.js';
import { anthropicToChatRequest, type AnthropicFrontRequest } from './request.js';
import { chatCompletionToAnthropic } from './response.js';
import { AnthropicEventWriter, ClaudeNativeStream } from './stream.js';

const cached: ClaudeCacheControl = { type: 'ephemeral' };
const vertexSettings = { region: 'us-east5', projectId: 'p' } as VertexSettings;
/** Channel types whose upstream speaks Claude's Messages API (Anthropic, Bedrock, Vertex). */
const claudeTypes = new Set([14, 33, 42]);

/**
 * The call an adaptor gets for this converted request, through the pipeline's own body preparation (model
 * mapping and the channel's forced system prompt re-serialise the body for OpenAI-protocol upstreams); on a
 * Claude channel it takes the native road, as relayCallOf sends it.
 */
function pipelineCall(
  chat: ChatRequest,
  options: { type?: number; upstreamModel?: string; systemPrompt?: string; stream?: boolean } = {},
): RelayCall {
  const value = chat as unknown as Record<string, unknown>;
  const original = claudeRequestOriginal(chat);
  const model = options.upstreamModel ?? chat.model;
  const stream = options.stream ?? chat.stream === true;
  const channel = { row: { system_prompt: options.systemPrompt ?? null } } as unknown as RoutedChannel;
  const { body } = prepareBody(
    { kind: 'json', value, raw: Buffer.from(JSON.stringify(value)), filled: false },
    'chat',
    stream,
    channel,
    model,
  );
  return {
    mode: 'chat',
    path: '/v1/chat/completions',
    query: '',
    model,
    stream,
    body,
    channel: { id: 1, type: options.type ?? 14, name: 'c', key: 'k', baseUrl: 'http://127.0.0.1:9', config: {} },
    clientHeaders: {},
    ...(original && claudeTypes.has(options.type ?? 14)
      ? { native: { protocol: 'anthropic' as const, original } }
      : {}),
  };
}

const sentToClaude = (call: RelayCall) => JSON.parse(String(buildAnthropicRequest(call).body));

/**
 * What the Anthropic client receives of a Claude upstream's stream on the native road, closed by the relay's
 * `[DONE]` when the upstream did not end it.
 */
async function nativeEvents(sse: string, model: string) {
  const writer = new AnthropicEventWriter(model, 7);
  const { written, tail } = await nativeRelayed(pieces(sse, 11), new ClaudeNativeStream(writer, model));
  return parseAnthropicEvents(written + tail + writer.payload('[DONE]'));
}

describe('Claude-only request fields through the Anthropic front', () => {
  test('cache_control, thinking blocks with signatures and the thinking parameter reach Claude unchanged', () => {
    const sent = sentToClaude(pipelineCall(anthropicToChatRequest(toolLoop)));
    expect(sent).toEqual(toolLoop);
  });

  test('a streamed call with a mapped model and a forced system prompt: the channel wins where it changed something', () => {
    const chat = anthropicToChatRequest({ ...toolLoop, stream: true });
    const sent = sentToClaude(
      pipelineCall(chat, { upstreamModel: 'claude-3-7-sonnet-latest', systemPrompt: 'Answer in French.' }),
    );
    expect(sent).toMatchObject({
      model: 'claude-3-7-sonnet-latest',
      stream: true,
      system: 'Answer in French.',
      thinking: toolLoop.thinking,
      tools: toolLoop.tools,
      messages: toolLoop.messages,
    });
    // The relay's retries reuse the body: sending it again gives the same turns.
    expect(sentToClaude(pipelineCall(chat)).messages).toEqual(toolLoop.messages);
  });

  test('thinking without a signature (an OpenAI upstream reasoning) is not sent to Claude', () => {
    const sent = sentToClaude(
      pipelineCall(
        anthropicToChatRequest({
          model: 'claude-3-7-sonnet-20250219',
          max_tokens: 64,
          messages: [
            { role: 'user', content: 'hi' },
            {
              role: 'assistant',
              content: [
                { type: 'thinking', thinking: 'from gpt', signature: '' },
                { type: 'text', text: 'Hello' },
              ],
            },
            { role: 'user', content: 'again' },
          ],
        }),
      ),
    );
    expect(sent.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Hello' }] });
  });

  test('Claude on Bedrock and Vertex gets the same blocks', () => {
    const chat = anthropicToChatRequest(toolLoop);
    const bedrock = JSON.parse(
      buildBedrockInvocation(
        pipelineCall(chat, { type: 33, upstreamModel: 'anthropic.claude-3-7-sonnet-20250219-v1:0' }),
      ).body,
    );
    const vertex = JSON.parse(
      vertexBody(pipelineCall(chat, { type: 42, upstreamModel: 'claude-3-7-sonnet@20250219' })),
    );
    for (const body of [bedrock, vertex]) {
      expect(body).toMatchObject({ thinking: toolLoop.thinking, system: toolLoop.system, tools: toolLoop.tools });
      expect(body.messages).toEqual(toolLoop.messages);
    }
  });

  test('an OpenAI-protocol upstream never receives the Claude originals, as bytes or re-serialised', async () => {
    const chat = anthropicToChatRequest({ ...toolLoop, stream: true });
    const expected = toolLoopForOpenAI({ model: 'gpt-4o-mini', stream: true });
    const asBytes = pipelineCall({ ...chat, model: 'gpt-4o-mini' }, { type: 1 });
    const reserialised = pipelineCall(chat, { type: 1, upstreamModel: 'gpt-4o-mini' });
    expect(reserialised.body.kind === 'json' && reserialised.body.changed).toBe(true);
    for (const call of [asBytes, reserialised]) {
      const body = String(openai.buildRequest(call).body);
      expect(JSON.parse(body)).toEqual(expected);
      expect(body).not.toMatch(/cache_control|signature|thinking|claude/);
    }
  });
});

describe("Claude Code's default request (system turns in place, fields newer than the gateway)", () => {
  // A block type the wire types do not list: the front takes it as the client sent it.
  const serverToolUse = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } };
  const serverToolTurn = {
    role: 'assistant' as const,
    content: [serverToolUse as unknown as ClaudeContentBlock, { type: 'text' as const, text: 'Found it.' }],
  };
  const request = { ...claudeCodeFirstRequest, messages: [...claudeCodeFirstRequest.messages, serverToolTurn] };

  test('an Anthropic channel gets the request as Claude Code sent it, every field and block in its place', () => {
    const sent = sentToClaude(pipelineCall(anthropicToChatRequest(request)));
    expect(sent).toEqual({ ...request, metadata: { user_id: request.metadata!.user_id } });
  });

  test('Bedrock and Vertex get the fields they know; the system turn joins the top-level system', () => {
    const chat = anthropicToChatRequest(request);
    const bedrock = JSON.parse(
      buildBedrockInvocation(
        pipelineCall(chat, { type: 33, upstreamModel: 'anthropic.claude-3-7-sonnet-20250219-v1:0' }),
      ).body,
    );
    expect(bedrock).not.toHaveProperty('output_config');
    expect(bedrock).not.toHaveProperty('context_management');
    expect(bedrock.system).toEqual([...request.system!, ...(request.messages[1]!.content as object[])]);
    expect(bedrock.messages).toEqual([request.messages[0], serverToolTurn]);
  });

  test('an OpenAI channel gets the system turn as a system message in its place, and nothing Claude-only', () => {
    const body = String(openai.buildRequest(pipelineCall(anthropicToChatRequest(request), { type: 1 })).body);
    const sent = JSON.parse(body);
    expect(sent.messages.map((message: { role: string }) => message.role)).toEqual([
      'system',
      'user',
      'system',
      'assistant',
    ]);
    expect(sent.messages[2].content).toBe('# Environment\nPrimary working directory: /tmp');
    expect(sent.messages[3]).toEqual({ role: 'assistant', content: 'Found it.' });
    expect(sent.tools.map((tool: { function: { name: string } }) => tool.function.name)).toEqual([
      'Bash',
      'DeferredToolPlaceholder',
    ]);
    expect(body).not.toMatch(/output_config|context_management|adaptive|defer_loading|server_tool_use|cache_control/);
  });
});

describe('Claude-only headers, tool choice and documents through the Anthropic front', () => {
  const hi: AnthropicFrontRequest = {
    model: 'claude-3-7-sonnet-20250219',
    max_tokens: 64,
    messages: [{ role: 'user', content: 'hi' }],
  };
  const clientHeaders = anthropicClientHeaders({
    'anthropic-beta': 'interleaved-thinking-2025-05-14,claude-code-20250219,bad flag',
    'anthropic-version': '2023-01-01',
  });

  test("Anthropic channels get the client's anthropic-beta and anthropic-version; others the default version only", () => {
    const headers = buildAnthropicRequest(pipelineCall(anthropicToChatRequest(hi, clientHeaders))).headers;
    expect(headers).toMatchObject({
      'anthropic-beta': 'interleaved-thinking-2025-05-14,claude-code-20250219',
      'anthropic-version': '2023-01-01',
    });
    const plain = buildAnthropicRequest(pipelineCall(anthropicToChatRequest(hi))).headers;
    expect(plain['anthropic-version']).toBe('2023-06-01');
    expect(plain['anthropic-beta']).toBeUndefined();
    // An OpenAI-protocol channel never sees them, in headers or body.
    const openaiRequest = openai.buildRequest(
      pipelineCall({ ...anthropicToChatRequest(hi, clientHeaders), model: 'gpt-4o-mini' }, { type: 1 }),
    );
    expect(JSON.stringify(openaiRequest)).not.toMatch(/interleaved|claude-code|2023-01-01/);
  });

  test('Bedrock gets the betas it serves in the body, Vertex in the anthropic-beta header; their versions stay', () => {
    const chat = anthropicToChatRequest(hi, clientHeaders);
    const bedrock = JSON.parse(
      buildBedrockInvocation(
        pipelineCall(chat, { type: 33, upstreamModel: 'anthropic.claude-3-7-sonnet-20250219-v1:0' }),
      ).body,
    );
    expect(bedrock).toMatchObject({
      anthropic_version: 'bedrock-2023-05-31',
      anthropic_beta: ['interleaved-thinking-2025-05-14'],
    });
    const vertexCall = pipelineCall(chat, { type: 42, upstreamModel: 'claude-3-7-sonnet@20250219' });
    const vertex = buildVertexRequest(vertexCall, vertexSettings, 'token');
    expect(vertex.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14');
    expect(JSON.parse(String(vertex.body))).toMatchObject({ anthropic_version: 'vertex-2023-10-16' });
    expect(JSON.parse(String(vertex.body)).anthropic_beta).toBeUndefined();
    // Without a beta Bedrock serves, and for Gemini on Vertex, nothing is added.
    const codeOnly = anthropicToChatRequest(hi, { betas: ['claude-code-20250219'] });
    const bedrockPlain = JSON.parse(
      buildBedrockInvocation(
        pipelineCall(codeOnly, { type: 33, upstreamModel: 'anthropic.claude-3-7-sonnet-20250219-v1:0' }),
      ).body,
    );
    expect(bedrockPlain.anthropic_beta).toBeUndefined();
    const gemini = buildVertexRequest(
      pipelineCall(chat, { type: 42, upstreamModel: 'gemini-1.5-pro' }),
      vertexSettings,
      't',
    );
    expect(gemini.headers['anthropic-beta']).toBeUndefined();
  });

  test('tool_choice none keeps the tools (and so the cached prompt prefix) for Claude', () => {
    const request: AnthropicFrontRequest = { ...toolLoop, tool_choice: { type: 'none' } };
    const sent = sentToClaude(pipelineCall(anthropicToChatRequest(request)));
    expect(sent.tools).toEqual(toolLoop.tools);
    expect(sent.tool_choice).toEqual({ type: 'none' });
    const bedrock = JSON.parse(
      buildBedrockInvocation(
        pipelineCall(anthropicToChatRequest(request), {
          type: 33,
          upstreamModel: 'anthropic.claude-3-7-sonnet-20250219-v1:0',
        }),
      ).body,
    );
    expect(bedrock).toMatchObject({ tools: toolLoop.tools, tool_choice: { type: 'none' } });
  });

  test('a user turn of documents only reaches Claude as sent', () => {
    const documents: AnthropicFrontRequest = {
      model: 'claude-3-7-sonnet-20250219',
      max_tokens: 256,
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'document',
              source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQK' },
              title: 'Report',
              citations: { enabled: true },
              cache_control: cached,
            },
            { type: 'document', source: { type: 'url', url: 'https://example.com/spec.pdf' } },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Plain notes.' } },
          ],
        },
      ],
    };
    const sent = sentToClaude(pipelineCall(anthropicToChatRequest(documents)));
    expect(sent.messages).toEqual(documents.messages);
    const vertex = JSON.parse(
      vertexBody(
        pipelineCall(anthropicToChatRequest(documents), { type: 42, upstreamModel: 'claude-3-7-sonnet@20250219' }),
      ),
    );
    expect(vertex.messages).toEqual(documents.messages);
  });
});

describe('Claude-only answer fields through the Anthropic front', () => {
  const answer = (call: RelayCall) =>
    readAnthropicResponse(
      {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: fixtureBytes('anthropic', 'thinking-tool-use.json'),
      },
      call,
    );
  const recorded = fixtureJson('anthropic', 'thinking-tool-use.json') as ClaudeResponse;

  test('a whole answer comes back as Claude sent it: thinking and signature, redacted thinking, cache usage', () => {
    const result = answer(
      pipelineCall(anthropicToChatRequest(toolLoop), { upstreamModel: 'claude-3-7-sonnet-latest' }),
    );
    // Billing's prompt is the whole input: 18 + 1250 cache writes + 3000 cache reads.
    expect(result.usage).toEqual({
      prompt_tokens: 4268,
      completion_tokens: 96,
      total_tokens: 4364,
      prompt_tokens_details: { cached_tokens: 3000 },
      cache_creation_input_tokens: 1250,
    });
    const message = chatCompletionToAnthropic(JSON.parse(result.body.toString()), 'claude-3-7-sonnet-20250219');
    expect(message).toEqual({ ...recorded, model: 'claude-3-7-sonnet-20250219' });
    expect(message.usage).toEqual({
      input_tokens: 18,
      cache_creation_input_tokens: 1250,
      cache_read_input_tokens: 3000,
      output_tokens: 96,
    });
  });

  test('Bedrock hands the Claude message on too', () => {
    const call = pipelineCall(anthropicToChatRequest(toolLoop), {
      type: 33,
      upstreamModel: 'anthropic.claude-3-7-sonnet-20250219-v1:0',
    });
    const result = readBedrockAnswer(fixtureBytes('anthropic', 'thinking-tool-use.json'), call);
    expect(chatCompletionToAnthropic(JSON.parse(result.body.toString()), 'm').content).toEqual(recorded.content);
  });

  test('a stream comes back event for event: thinking, signature and redacted blocks at their indexes, cache usage', async () => {
    const events = await nativeEvents(fixture('anthropic', 'thinking-stream.sse'), 'claude-front');
    const recordedEvents = parseAnthropicEvents(fixture('anthropic', 'thinking-stream.sse').toString());
    recordedEvents[0]!.data.message.model = 'claude-front';
    expect(events).toEqual(recordedEvents);
    expect(events.filter((event) => event.data.delta?.type === 'signature_delta')).toEqual([
      {
        event: 'content_block_delta',
        data: {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'signature_delta', signature: expect.any(String) },
        },
      },
    ]);
    expect(events[0]?.data.message.usage).toEqual({
      input_tokens: 18,
      cache_creation_input_tokens: 1250,
      cache_read_input_tokens: 3000,
      output_tokens: 1,
    });
  });

  test('the stream still gives billing its usage and text', async () => {
    const call = pipelineCall(anthropicToChatRequest({ ...toolLoop, stream: true }));
    let usage;
    let text = '';
    for await (const chunk of readAnthropicStream(pieces(fixture('anthropic', 'thinking-stream.sse')), call)) {
      if (chunk.usage) usage = chunk.usage;
      text += chunk.text ?? '';
    }
    expect(usage).toEqual({
      prompt_tokens: 4268,
      completion_tokens: 96,
      total_tokens: 4364,
      prompt_tokens_details: { cached_tokens: 3000 },
      cache_creation_input_tokens: 1250,
    });
    expect(text).toBe('The user wants the weather in Paris. I should call get_weather.Let me check the weather.');
  });

  test('a Claude stream that ends early is closed at the open block', async () => {
    const cut = fixture('anthropic', 'thinking-stream.sse').toString().split('event: content_block_stop')[0]!;
    const events = await nativeEvents(cut, 'claude-front');
    expect(events.slice(-4)).toEqual([
      {
        event: 'content_block_delta',
        data: {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'signature_delta', signature: expect.any(String) },
        },
      },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
      {
        event: 'message_delta',
        data: {
          type: 'message_delta',
          delta: { stop_reason: 'end_turn', stop_sequence: null },
          usage: { input_tokens: 18, output_tokens: 1 },
        },
      },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ]);
  });
});
