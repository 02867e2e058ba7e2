import type { FastifyReply } from 'fastify';

/**
 * Writes server-sent events straight to the socket (the reply is hijacked), honouring back-pressure so a
 * slow client slows the upstream read instead of filling memory.
 */
export class SseWriter {
  private started = false;

  /** `format` turns a `data:` payload into the SSE text to write (a non-OpenAI front's events). */
  constructor(
    private readonly reply: FastifyReply,
    private readonly format: (data: string) => string = (data) => `data: ${data}\n\n`,
  ) {}

  /** Sends the status line and SSE headers, keeping headers already set on the reply (CORS, request id). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.reply.hijack();
    const headers: Record<string, string | number | string[]> = {};
    for (const [name, value] of Object.entries(this.reply.getHeaders())) if (value !== undefined) headers[name] = value;
    this.reply.raw.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
  }

  get closed(): boolean {
    return this.reply.raw.destroyed || this.reply.raw.writableEnded;
  }

  /** One `data:` event; resolves once the socket can take more. */
  async send(data: string): Promise<void> {
    if (this.closed) return;
    const text = this.format(data);
    if (text === '') return;
    if (!this.reply.raw.write(text)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.reply.raw.off('drain', done);
          this.reply.raw.off('close', done);
          resolve();
        };
        this.reply.raw.on('drain', done);
        this.reply.raw.on('close', done);
      });
    }
  }

  end(): void {
    if (!this.closed) this.reply.raw.end();
  }
}
