import type Anthropic from '@anthropic-ai/sdk';
import type { AnthropicFrontRequest } from '../src/relay/fronts/anthropic/request.js';

/** Fits both the SDK's parameters (HTTP tests) and the front's own request type (unit tests). */
type FrontRequest = AnthropicFrontRequest & Anthropic.MessageCreateParamsNonStreaming;

const cached = { type: 'ephemeral' } as const;

/** The tool Claude Code offers in the loop below. */
export const weatherTool = {
  name: 'get_weather',
  description: 'Current weather',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
} satisfies Anthropic.Tool;

/**
 * The second call of a Claude Code tool loop with extended thinking, prompt-caching breakpoints set: the
 * assistant turn carries a signed thinking block, a redacted one and a tool_use; the next user turn answers it.
 */
export const toolLoop = {
  model: 'claude-3-7-sonnet-20250219',
  max_tokens: 2048,
  thinking: { type: 'enabled', budget_tokens: 1024 },
  system: [
    { type: 'text', text: 'You are Claude Code.' },
    { type: 'text', text: 'Project notes: the tests use vitest.', cache_control: cached },
  ],
  tools: [{ ...weatherTool, cache_control: cached }],
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?', cache_control: cached }] },
    {
      role: 'assistant',
      content: [
        {
          type: 'thinking',
          thinking: 'I should call get_weather.',
          signature:
            'ErUBCkYIBBgCIkBmVd0KQm2A9WvlYfHuuEZcKJ9f7aw3JnSGuN6nM0iXbY1Yu1xqP6vQmXy2hlpAKN3s4C2DwN5tYpQ2iE2mZr2nEgx4',
        },
        { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
        { type: 'text', text: 'Let me check.' },
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: '{"temp_c":21}', cache_control: cached },
        { type: 'text', text: 'And tomorrow?' },
      ],
    },
  ],
} satisfies FrontRequest;

/**
 * What an OpenAI-protocol upstream must receive for `toolLoop`: system blocks joined, the tool loop as
 * tool_calls and a tool message, and nothing Claude-only (cache_control, thinking, signatures).
 */
export function toolLoopForOpenAI(options: { model: string; stream: boolean }) {
  return {
    model: options.model,
    max_tokens: 2048,
    ...(options.stream ? { stream: true, stream_options: { include_usage: true } } : {}),
    messages: [
      { role: 'system', content: 'You are Claude Code.Project notes: the tests use vitest.' },
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: 'Let me check.',
        tool_calls: [
          { id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'toolu_1', content: '{"temp_c":21}' },
      { role: 'user', content: 'And tomorrow?' },
    ],
    tools: [
      {
        type: 'function',
        function: {
          name: weatherTool.name,
          description: weatherTool.description,
          parameters: weatherTool.input_schema,
        },
      },
    ],
  };
}

/**
 * Claude Code 2.1.332's first request on its default model (recorded, texts and tools shortened): a `system`
 * turn inside `messages` with its own `output_config`, adaptive thinking, `context_management`,
 * `output_config` and a tool with `defer_loading`.
 */
export const claudeCodeFirstRequest: AnthropicFrontRequest = {
  model: 'claude-opus-5-5',
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: '<system-reminder>\nAttribution for git commits.\n</system-reminder>\n' },
        { type: 'text', text: 'say hi' },
      ],
    },
    {
      role: 'system',
      content: [{ type: 'text', text: '# Environment\nPrimary working directory: /tmp', cache_control: cached }],
      output_config: { effort: 'medium' },
    },
  ],
  system: [
    { type: 'text', text: 'x-anthropic-billing-header: cc_version=2.1.332.0b8; cc_entrypoint=sdk-cli;' },
    { type: 'text', text: "You are a Claude agent, built on Anthropic's Claude Agent SDK.", cache_control: cached },
  ],
  tools: [
    {
      name: 'Bash',
      description: 'Executes a bash command and returns its output.',
      input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
    },
    {
      name: 'DeferredToolPlaceholder',
      description: 'Reserved placeholder that keeps deferred tool loading active',
      input_schema: { type: 'object', properties: {} },
      defer_loading: true,
    },
  ],
  metadata: { user_id: '{"device_id":"413e2f7f","account_uuid":"","session_id":"4db06442"}' },
  max_tokens: 128000,
  thinking: { type: 'adaptive', display: 'omitted' },
  context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
  output_config: { effort: 'medium' },
  stream: true,
};
