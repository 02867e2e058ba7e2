import { fixture, fixtureJson, type MockUpstream, startMockUpstream } from './mock-kit.js';

/** Models this mock has "pulled"; others answer 404 like Ollama. */
export const ollamaMockModels = ['llama3:latest', 'llama3.1:latest', 'nomic-embed-text'];

/**
 * A loopback Ollama: `/api/chat` (NDJSON stream unless `stream:false`, as Ollama defaults to streaming) and
 * `/api/embed`, with Ollama's `{"error": …}` answers for unknown models and bad bodies.
 */
export function startOllamaMock(): Promise<MockUpstream> {
  return startMockUpstream(async (request, reply) => {
    const body = request.json as Record<string, unknown> | undefined;
    if (request.method !== 'POST' || (request.path !== '/api/chat' && request.path !== '/api/embed'))
      return reply.raw(404, { 'content-type': 'text/plain' }, '404 page not found');
    if (!body || typeof body.model !== 'string') return reply.json(400, { error: 'model is required' });
    if (!ollamaMockModels.includes(body.model))
      return reply.json(404, { error: `model "${body.model}" not found, try pulling it first` });
    if (request.path === '/api/embed') {
      const inputs = Array.isArray(body.input) ? body.input : [body.input];
      const recorded = fixtureJson('ollama', 'embed.json') as { embeddings: number[][] };
      return reply.json(200, {
        ...recorded,
        model: body.model,
        embeddings: inputs.map((_, index) => recorded.embeddings[index % recorded.embeddings.length]),
      });
    }
    const messages = body.messages;
    if (!Array.isArray(messages)) return reply.json(400, { error: 'messages is required' });
    for (const message of messages as { role?: unknown; content?: unknown; images?: unknown }[]) {
      if (!['system', 'user', 'assistant', 'tool'].includes(String(message.role)))
        return reply.json(400, { error: `invalid role: ${String(message.role)}` });
      if (typeof message.content !== 'string')
        return reply.json(400, {
          error: 'json: cannot unmarshal array into Go struct field Message.messages.content of type string',
        });
      if (
        message.images !== undefined &&
        (!Array.isArray(message.images) ||
          message.images.some((image) => typeof image !== 'string' || image.startsWith('data:')))
      ) {
        return reply.json(400, { error: 'illegal base64 data at input byte 4' });
      }
    }
    const tools = Array.isArray(body.tools) && body.tools.length > 0;
    if (body.stream === false) return reply.json(200, fixtureJson('ollama', tools ? 'tool-call.json' : 'chat.json'));
    return reply.stream(
      'application/x-ndjson',
      fixture('ollama', tools ? 'tool-call-stream.jsonl' : 'chat-stream.jsonl'),
    );
  });
}
