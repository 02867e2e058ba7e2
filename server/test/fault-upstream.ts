import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * What one call asks the fault upstream for, named in its last message (`fault:<kind>`) or its embeddings
 * input: each request of a mixed load picks its own fault.
 */
export type FaultKind =
  | 'ok' // a whole answer with usage
  | '500' // an OpenAI error, status 500
  | '429' // an OpenAI rate-limit error
  | 'cut' // a stream that stops after two chunks, without usage or [DONE]
  | 'nousage' // an answer without usage (the gateway counts it itself)
  | 'slow' // a stream of 40 chunks, 50 ms apart
  | 'long'; // a whole answer of 2,000 completion tokens (a long answer to a call without max_tokens)

/** Usage reported for whole answers: 12 prompt tokens, 20 completion tokens (fewer under a smaller max_tokens). */
export const faultUsage = { prompt_tokens: 12, completion_tokens: 20, total_tokens: 32 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function kindOf(body: any): FaultKind {
  const last = Array.isArray(body?.messages) ? body.messages[body.messages.length - 1] : undefined;
  const text = typeof last?.content === 'string' ? last.content : String(body?.input ?? '');
  const match = /fault:(ok|500|429|cut|nousage|slow|long)/.exec(text);
  return (match?.[1] as FaultKind | undefined) ?? 'ok';
}

/** An OpenAI-protocol upstream on 127.0.0.1 whose every request chooses its own failure. */
export class FaultUpstream {
  private server!: Server;
  private readonly sockets = new Set<Socket>();
  url = '';
  /** Requests received, by kind, and streams currently being written. */
  readonly received = new Map<FaultKind, number>();
  streamsOpen = 0;

  static async start(): Promise<FaultUpstream> {
    const upstream = new FaultUpstream();
    upstream.server = createServer((request, response) => {
      void upstream.handle(request, response).catch(() => response.destroy());
    });
    upstream.server.on('connection', (socket) => {
      upstream.sockets.add(socket);
      socket.on('close', () => upstream.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => upstream.server.listen(0, '127.0.0.1', resolve));
    upstream.url = `http://127.0.0.1:${(upstream.server.address() as AddressInfo).port}`;
    return upstream;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const parts: Buffer[] = [];
    for await (const part of request) parts.push(part as Buffer);
    const body = JSON.parse(Buffer.concat(parts).toString('utf8') || '{}');
    const kind = kindOf(body);
    this.received.set(kind, (this.received.get(kind) ?? 0) + 1);
    const json = (status: number, value: unknown) =>
      void response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (kind === '500') return json(500, { error: { message: 'upstream exploded', type: 'server_error', code: null } });
    if (kind === '429')
      return json(429, { error: { message: 'rate limited', type: 'requests', code: 'rate_limit_exceeded' } });
    const model = String(body.model ?? 'gpt-3.5-turbo');
    // An output cap is kept, as real upstreams keep it: fewer completion tokens, fewer chunks.
    const cap = Number(body.max_tokens ?? body.max_completion_tokens) || Infinity;
    const completion = Math.min(kind === 'long' ? 2_000 : faultUsage.completion_tokens, cap);
    const capped = {
      ...faultUsage,
      completion_tokens: completion,
      total_tokens: faultUsage.prompt_tokens + completion,
    };
    const usage = kind === 'nousage' || kind === 'cut' ? undefined : capped;
    if (request.url?.endsWith('/embeddings'))
      return json(200, {
        object: 'list',
        data: [{ object: 'embedding', index: 0, embedding: [0.1, 0.2, 0.3] }],
        model,
        ...(usage ? { usage: { prompt_tokens: usage.prompt_tokens, total_tokens: usage.prompt_tokens } } : {}),
      });
    const text = 'twenty tokens of an answer from the fault upstream'.split(' ').slice(0, cap).join(' ');
    if (!body.stream)
      return json(200, {
        id: 'chatcmpl-fault',
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        ...(usage ? { usage } : {}),
      });
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    this.streamsOpen += 1;
    response.on('close', () => (this.streamsOpen -= 1));
    const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: object = {}) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-fault', object: 'chat.completion.chunk', model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
    // "piece N " is about three tokens.
    const count = Math.min(kind === 'slow' ? 40 : 4, Math.max(1, Math.floor(cap / 3)));
    for (let index = 0; index < count; index++) {
      if (response.destroyed) return;
      if (kind === 'cut' && index === 2) return void response.destroy();
      response.write(chunk({ content: `piece ${index} ` }));
      if (kind === 'slow') await sleep(50);
    }
    response.write(chunk({}, 'stop'));
    if (usage && body.stream_options?.include_usage)
      response.write(
        `data: ${JSON.stringify({ id: 'chatcmpl-fault', object: 'chat.completion.chunk', model, choices: [], usage })}\n\n`,
      );
    response.end('data: [DONE]\n\n');
  }
}
