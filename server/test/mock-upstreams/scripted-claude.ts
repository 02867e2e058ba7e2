import type { ReportedUsage } from '../exact-billing.js';
import { anthropicMockKey, checkClaudeMessages } from './anthropic.js';
import { type MockUpstream, startMockUpstream } from './mock-kit.js';

type Json = Record<string, unknown>;

/** One turn of a scripted Claude: text, or a call of one of the offered tools. */
export type ClaudeTurn = { text: string } | { toolUse: { name: string; input: Json } };

/** The last user turn of a Messages request: its text and whether it carries a tool result. */
export function lastUserTurn(body: Json): { text: string; hasToolResult: boolean } {
  const messages = (body.messages ?? []) as { role: string; content: string | Json[] }[];
  const last = messages.findLast((message) => message.role === 'user');
  const blocks = typeof last?.content === 'string' ? [{ type: 'text', text: last.content }] : (last?.content ?? []);
  return {
    text: blocks.map((block) => (block.type === 'text' ? String(block.text) : '')).join(' '),
    hasToolResult: blocks.some((block) => block.type === 'tool_result'),
  };
}

const sse = (events: Json[]) =>
  events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`).join('');

/**
 * A loopback Anthropic Messages API that answers each call as `script` decides (a text or a tool call),
 * whole or as Claude's event stream, with a distinct usage per call recorded in `reported`. It checks the key
 * and the conversation as the real API does.
 */
export async function startScriptedClaude(
  script: (body: Json) => ClaudeTurn,
): Promise<MockUpstream & { reported: ReportedUsage[] }> {
  const reported: ReportedUsage[] = [];
  const upstream = await startMockUpstream(async (request, reply) => {
    if (request.method !== 'POST' || request.path !== '/v1/messages')
      return reply.json(404, { type: 'error', error: { type: 'not_found_error', message: request.path } });
    if (request.headers['x-api-key'] !== anthropicMockKey)
      return reply.json(401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
    const body = request.json ?? {};
    const problem = checkClaudeMessages(body.messages, { systemTurns: true });
    if (problem) return reply.json(400, { type: 'error', error: { type: 'invalid_request_error', message: problem } });
    const usage = { prompt: 1000 + reported.length * 37, completion: 20 + reported.length * 3 };
    reported.push(usage);
    const turn = script(body);
    const id = `toolu_${reported.length}`;
    const block = 'text' in turn ? { type: 'text', text: turn.text } : { type: 'tool_use', id, ...turn.toolUse };
    const stopReason = 'text' in turn ? 'end_turn' : 'tool_use';
    const message = {
      id: `msg_${reported.length}`,
      type: 'message',
      role: 'assistant',
      model: body.model,
      content: [block],
      stop_reason: stopReason,
      stop_sequence: null,
      usage: { input_tokens: usage.prompt, output_tokens: usage.completion },
    };
    if (body.stream !== true) return reply.json(200, message);
    const started = 'text' in turn ? { type: 'text', text: '' } : { ...block, input: {} };
    const delta =
      'text' in turn
        ? { type: 'text_delta', text: turn.text }
        : { type: 'input_json_delta', partial_json: JSON.stringify(turn.toolUse.input) };
    return reply.stream(
      'text/event-stream',
      sse([
        {
          type: 'message_start',
          message: {
            ...message,
            content: [],
            stop_reason: null,
            usage: { input_tokens: usage.prompt, output_tokens: 1 },
          },
        },
        { type: 'content_block_start', index: 0, content_block: started },
        { type: 'content_block_delta', index: 0, delta },
        { type: 'content_block_stop', index: 0 },
        {
          type: 'message_delta',
          delta: { stop_reason: stopReason, stop_sequence: null },
          usage: { output_tokens: usage.completion },
        },
        { type: 'message_stop' },
      ]),
    );
  });
  return Object.assign(upstream, { reported });
}
