import type { RelayReply } from './relay-job.js';

/**
 * Writes server-sent events straight to the socket, honouring back-pressure so a
 * slow client slows the upstream read instead of filling memory. Events written while one upstream read is
 * handled leave in one system call: the socket is corked at the first and uncorked on the next tick, as
 * Node does for a single write (a later phase of the loop would hold them behind other connections' work).
 */
export class SseWriter {
  private started = false;
  /** Whether anything went out after the headers (which then went with it). */
  private forwarded = false;
  private corked = false;
  /** Set once the answer's tail has begun: what is forwarded from then on leaves with the tail, at `end`. */
  private holding = false;
  private readonly uncork = () => {
    if (!this.corked || this.holding) return;
    this.corked = false;
    this.reply.raw.uncork();
  };

  /**
   * `format` turns a `data:` payload into the SSE text to write (a non-OpenAI front's events); `contentType`
   * is a front's own when its stream is not an event stream.
   */
  constructor(
    private readonly reply: RelayReply,
    private readonly format: (data: string) => string = (data) => `data: ${data}\n\n`,
    private readonly contentType = 'text/event-stream',
  ) {}

  /**
   * Sends the status line and SSE headers, keeping headers already set on the reply (CORS, request id). They
   * leave with the first event when it came with the upstream's headers, otherwise on their own at once:
   * the client learns the call is answered while a model is still on its way to its first token.
   */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.reply.raw.writeHead(200, {
      ...this.reply.getHeaders(),
      'content-type': this.contentType,
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    // After this turn's events (an upstream's first bytes usually arrive with its headers) were written.
    setImmediate(this.flushHeaders);
  }

  private readonly flushHeaders = () => {
    if (!this.closed && !this.forwarded) this.reply.raw.flushHeaders();
  };

  get closed(): boolean {
    return this.reply.raw.destroyed || this.reply.raw.writableEnded;
  }

  /**
   * Queues one `data:` event. Returns a promise only when the client is not keeping up (await it before
   * sending more); otherwise nothing, so the caller goes on without a pause.
   */
  send(data: string): Promise<void> | undefined {
    const text = this.format(data);
    return text === '' ? undefined : this.forward(text);
  }

  /**
   * Keeps what is forwarded from now on in the socket's buffer until `end`. For the events an upstream sent in
   * the read that began the answer's tail (OpenAI's last read carries the last tokens, the usage and [DONE]):
   * they would leave one turn before the tail, which waits for the charge's journal line, and cost the call a
   * second write to the client (a system call and a client wake-up: about 20 µs of the gateway's CPU on
   * loopback). A client that does not keep up ends the hold.
   */
  holdToEnd(): void {
    this.holding = true;
  }

  /** Queues SSE text or bytes as they are (a forwarded upstream stream); returns a promise as `send` does. */
  forward(bytes: string | Buffer): Promise<void> | undefined {
    if (this.closed) return undefined;
    this.forwarded = true;
    const raw = this.reply.raw;
    if (!this.corked) {
      this.corked = true;
      raw.cork();
      process.nextTick(this.uncork);
    }
    if (raw.write(bytes)) return undefined;
    this.holding = false;
    this.uncork();
    return new Promise<void>((resolve) => {
      const done = () => {
        raw.off('drain', done);
        raw.off('close', done);
        resolve();
      };
      raw.on('drain', done);
      raw.on('close', done);
    });
  }

  end(): void {
    // Ended while still corked, the last events and the chunked body's terminator leave in one write
    // (uncorked first, the terminator took a system call and a client wake-up of its own).
    this.holding = false;
    if (!this.closed) this.reply.raw.end();
    this.uncork();
  }
}
