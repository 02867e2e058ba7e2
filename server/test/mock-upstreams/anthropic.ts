import { fixture, fixtureJson, type MockUpstream, startMockUpstream } from './mock-kit.js';

export const anthropicMockKey = 'sk-ant-mock-key';

const error = (type: string, message: string) => ({ type: 'error', error: { type, message } });

/**
 * A loopback Anthropic Messages API: checks the key, the version header and the body the way the real API
 * does (model and max_tokens required, user/assistant/system roles only, tool_result only in user turns), then
 * replays the recorded answers: a tool-use answer when tools are offered, text otherwise, streamed when asked.
 */
export function startAnthropicMock(options: { pathPrefix?: string } = {}): Promise<MockUpstream> {
  const prefix = options.pathPrefix ?? '';
  return startMockUpstream(async (request, reply) => {
    if (request.method !== 'POST' || request.path !== `${prefix}/v1/messages`) {
      return reply.json(404, error('not_found_error', `Not found: ${request.path}`));
    }
    if (request.headers['x-api-key'] !== anthropicMockKey)
      return reply.json(401, error('authentication_error', 'invalid x-api-key'));
    if (!request.headers['anthropic-version'])
      return reply.json(400, error('invalid_request_error', 'anthropic-version: header is required'));
    const body = request.json as Record<string, unknown> | undefined;
    if (!body || typeof body.model !== 'string')
      return reply.json(400, error('invalid_request_error', 'model: Field required'));
    if (typeof body.max_tokens !== 'number')
      return reply.json(400, error('invalid_request_error', 'max_tokens: Field required'));
    const problem = checkClaudeMessages(body.messages, { systemTurns: true });
    if (problem) return reply.json(400, error('invalid_request_error', problem));
    const wantsTools = Array.isArray(body.tools) && body.tools.length > 0;
    if (body.stream === true) {
      return reply.stream('text/event-stream', fixture('anthropic', wantsTools ? 'tool-stream.sse' : 'stream.sse'));
    }
    return reply.json(200, fixtureJson('anthropic', wantsTools ? 'tool-use.json' : 'message.json'), {
      'request-id': 'req_mock',
    });
  });
}

/**
 * The checks the Messages API makes on `messages`; a message when one fails. Shared with the Bedrock and Vertex
 * mocks; Anthropic's own API also takes `system` turns inside the conversation (`systemTurns`).
 */
export function checkClaudeMessages(messages: unknown, options: { systemTurns?: boolean } = {}): string | undefined {
  if (!Array.isArray(messages) || messages.length === 0) return 'messages: at least one message is required';
  for (const [index, message] of messages.entries()) {
    const role = (message as { role?: unknown }).role;
    if (role === 'system' && options.systemTurns) continue;
    if (role !== 'user' && role !== 'assistant') return `messages.${index}.role: Input should be 'user' or 'assistant'`;
    const content = (message as { content?: unknown }).content;
    if (typeof content !== 'string' && !Array.isArray(content)) return `messages.${index}.content: Field required`;
    if (Array.isArray(content)) {
      for (const block of content as { type?: unknown }[]) {
        if (block.type === 'tool_result' && role !== 'user')
          return `messages.${index}: tool_result blocks are only allowed in user turns`;
        if (block.type === 'tool_use' && role !== 'assistant')
          return `messages.${index}: tool_use blocks are only allowed in assistant turns`;
      }
    }
  }
  return undefined;
}
