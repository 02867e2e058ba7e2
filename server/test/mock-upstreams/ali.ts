import { fixture, type MockUpstream, startMockUpstream } from './mock-kit.js';

const vendor = 'ali';
/** A 1×1 PNG, served as the generated picture. */
export const aliMockPicture = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

function invalid(message: string) {
  return { code: 'InvalidParameter', message, request_id: 'mock' };
}

/**
 * A local DashScope (native API): Bearer key check, text generation (whole, SSE with `X-DashScope-SSE`, tool
 * calls when tools are offered), embeddings, and image synthesis as an async task that is RUNNING on the
 * first poll and SUCCEEDED on the second. Prompts containing "违禁" fail data inspection.
 */
export function startAliMock(options: { apiKey: string }): Promise<MockUpstream> {
  const polls = new Map<string, number>();
  let url = '';
  const mock = startMockUpstream(async (request, reply) => {
    if (request.path === '/pictures/cat.png') {
      return reply.raw(200, { 'content-type': 'image/png' }, aliMockPicture);
    }
    if (request.headers.authorization !== `Bearer ${options.apiKey}`)
      return reply.json(401, fixture(vendor, 'error.json'));
    const task = /^\/api\/v1\/tasks\/([\w-]+)$/.exec(request.path);
    if (task && request.method === 'GET') {
      const count = (polls.get(task[1]!) ?? 0) + 1;
      polls.set(task[1]!, count);
      if (count < 2) return reply.json(200, fixture(vendor, 'image-running.json'));
      return reply.json(
        200,
        fixture(vendor, 'image-succeeded.json').replace('{{IMAGE_URL}}', `${url}/pictures/cat.png`),
      );
    }
    const body = request.json;
    if (request.method !== 'POST' || !body)
      return reply.json(404, { code: 'NotFound', message: 'not found', request_id: 'mock' });
    if (request.path === '/api/v1/services/aigc/text2image/image-synthesis') {
      if (request.headers['x-dashscope-async'] !== 'enable')
        return reply.json(403, {
          code: 'AccessDenied',
          message: 'current user api does not support synchronous calls',
          request_id: 'mock',
        });
      const input = body.input as { prompt?: string } | undefined;
      if (!input?.prompt) return reply.json(400, invalid('input.prompt is required'));
      return reply.json(200, fixture(vendor, 'image-submitted.json'));
    }
    if (request.path === '/api/v1/services/embeddings/text-embedding/text-embedding') {
      const texts = (body.input as { texts?: unknown[] } | undefined)?.texts;
      if (!Array.isArray(texts) || texts.length === 0) return reply.json(400, invalid('input.texts is required'));
      const answer = JSON.parse(fixture(vendor, 'embeddings.json')) as { output: { embeddings: unknown[] } };
      answer.output.embeddings = answer.output.embeddings.slice(0, texts.length);
      return reply.json(200, answer);
    }
    if (request.path === '/api/v1/services/aigc/multimodal-generation/generation') {
      const messages = (body.input as { messages?: Array<{ content: unknown }> } | undefined)?.messages ?? [];
      const partsOnly = messages.length > 0 && messages.every((message) => Array.isArray(message.content));
      if (!partsOnly) return reply.json(400, invalid('multimodal messages take a list of {text}/{image} parts'));
      return reply.json(200, fixture(vendor, 'vision.json'));
    }
    if (request.path !== '/api/v1/services/aigc/text-generation/generation')
      return reply.json(404, { code: 'NotFound', message: 'not found', request_id: 'mock' });
    const messages = (body.input as { messages?: Array<{ role: string; content: unknown }> } | undefined)?.messages;
    const parameters = (body.parameters ?? {}) as {
      result_format?: string;
      tools?: unknown[];
      incremental_output?: boolean;
    };
    if (!Array.isArray(messages) || messages.length === 0)
      return reply.json(400, invalid('input.messages is required'));
    if (parameters.result_format !== 'message') return reply.json(400, invalid('result_format must be message'));
    const stream = request.headers['x-dashscope-sse'] === 'enable';
    if (messages.some((message) => String(message.content).includes('违禁'))) {
      if (stream) return reply.stream('text/event-stream', fixture(vendor, 'stream-error.sse'));
      return reply.json(400, {
        code: 'DataInspectionFailed',
        message: 'Input data may contain inappropriate content.',
        request_id: 'mock',
      });
    }
    const wantsTool =
      Array.isArray(parameters.tools) && parameters.tools.length > 0 && messages.at(-1)?.role === 'user';
    if (stream) {
      if (!parameters.incremental_output)
        return reply.json(400, invalid('mock expects incremental_output for streams'));
      return reply.stream('text/event-stream', fixture(vendor, wantsTool ? 'stream-tool-call.sse' : 'stream.sse'));
    }
    return reply.json(200, fixture(vendor, wantsTool ? 'chat-tool-call.json' : 'chat.json'));
  });
  return mock.then((started) => {
    url = started.url;
    return started;
  });
}
