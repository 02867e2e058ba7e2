import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request the mock received, as it arrived. */
export interface RecordedRequest {
  method: string;
  /** Path with query string. */
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** The parsed body when it was JSON. */
  json?: any;
  /** Multipart fields (files as their byte length) when it was multipart. */
  form?: Record<string, string | number>;
  /** When (Date.now()) the connection it came on closed: the gateway abandoned the call (kept-alive ones stay open). */
  connectionClosedAt?: number;
  /** SSE events the mock has written for it so far (streams). */
  eventsSent?: number;
}

export type GarbageMode =
  | 'html' // 502 with an HTML error page
  | 'html-200' // 200 with an HTML page
  | 'not-json' // 200 application/json that does not parse
  | 'cut-stream' // a stream that stops after two chunks without [DONE]
  | 'reset' // the connection is destroyed before any answer
  | 'hang' // never answers
  | 'json-to-stream'; // a stream request answered with a plain JSON completion

/** How the mock answers; every field is optional and applies to every request until changed. */
export interface MockBehaviour {
  /** Delay before the answer starts. */
  latencyMs?: number;
  /** Answers start only once this resolves: a test decides when, instead of racing a delay. */
  heldUntil?: Promise<unknown>;
  /** Delay between stream chunks. */
  chunkDelayMs?: number;
  /** Answer with this status and an OpenAI error body (`error` overrides the body). */
  failure?: {
    status: number;
    error?: { message: string; type?: string; code?: string | null; param?: string | null };
    body?: string;
  };
  /** Only the first N requests fail; later ones succeed. */
  failTimes?: number;
  garbage?: GarbageMode;
  /** The assistant's reply text. */
  reply?: string;
  /** Usage to report; `null` omits usage entirely. */
  usage?: {
    prompt_tokens: number;
    completion_tokens: number;
    prompt_tokens_details?: { cached_tokens: number };
  } | null;
  /** Number of content chunks in a stream. */
  chunks?: number;
  /** Start streams with Azure's empty content-filter chunk. */
  azurePrelude?: boolean;
  /** The upstream's own checks of a JSON body: an error returned is answered 400 `invalid_request_error`. */
  refuse?: (body: any) => { message: string; param: string; code: string } | undefined;
}

export const mockDefaults = {
  reply: 'Hello from the mock upstream',
  usage: { prompt_tokens: 12, completion_tokens: 5 },
};

/** The output limit a chat or completion request sets, if any. */
function outputLimitOf(body: any): number | undefined {
  const limit = body?.max_completion_tokens ?? body?.max_tokens;
  return typeof limit === 'number' && limit > 0 ? limit : undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on('data', (chunk: Buffer) => parts.push(chunk));
    request.on('end', () => resolve(Buffer.concat(parts)));
    request.on('error', reject);
  });
}

async function parseMultipart(body: Buffer, contentType: string): Promise<Record<string, string | number>> {
  const form = await new Request('http://mock/', {
    method: 'POST',
    body: new Uint8Array(body),
    headers: { 'content-type': contentType },
  }).formData();
  const fields: Record<string, string | number> = {};
  for (const [name, value] of form.entries()) fields[name] = typeof value === 'string' ? value : value.size;
  return fields;
}

/**
 * A local upstream speaking OpenAI's and Azure's wire protocols on 127.0.0.1: JSON answers and SSE streams
 * (usage in a last chunk with empty choices when stream_options.include_usage), OpenAI-shaped errors,
 * latency, failure and garbage modes. It records every request it gets.
 */
export class MockOpenAIUpstream {
  readonly requests: RecordedRequest[] = [];
  /** The requests each connection carried, to mark them when it closes (one listener per connection). */
  private readonly connections = new WeakMap<Socket, RecordedRequest[]>();

  private noteConnection(socket: Socket, recorded: RecordedRequest): void {
    let carried = this.connections.get(socket);
    if (!carried) {
      const requests: RecordedRequest[] = [];
      carried = requests;
      this.connections.set(socket, requests);
      socket.once('close', () => {
        const at = Date.now();
        for (const request of requests) request.connectionClosedAt = at;
      });
    }
    carried.push(recorded);
  }
  behaviour: MockBehaviour = {};
  private failuresSent = 0;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(behaviour: MockBehaviour = {}): Promise<MockOpenAIUpstream> {
    const holder: { mock?: MockOpenAIUpstream } = {};
    const server = createServer((request, response) => {
      void holder.mock!.handle(request, response).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
        response.end(String(error));
      });
    });
    server.keepAliveTimeout = 5000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const mock = new MockOpenAIUpstream(server, `http://127.0.0.1:${port}`);
    holder.mock = mock;
    mock.behaviour = behaviour;
    server.on('connection', (socket) => {
      mock.sockets.add(socket);
      socket.on('close', () => mock.sockets.delete(socket));
    });
    return mock;
  }

  /** Replaces the behaviour and restarts the failure count. */
  set(behaviour: MockBehaviour): void {
    this.behaviour = behaviour;
    this.failuresSent = 0;
  }

  /** Forgets recorded requests and returns to default answers. */
  reset(): void {
    this.requests.length = 0;
    this.set({});
  }

  get lastRequest(): RecordedRequest | undefined {
    return this.requests.at(-1);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const contentType = request.headers['content-type'] ?? '';
    const recorded: RecordedRequest = {
      method: request.method ?? 'GET',
      url: request.url ?? '/',
      headers: request.headers,
      body,
    };
    if (contentType.includes('application/json')) {
      try {
        recorded.json = JSON.parse(body.toString('utf8'));
      } catch {
        recorded.json = undefined;
      }
    } else if (contentType.includes('multipart/form-data')) {
      recorded.form = await parseMultipart(body, contentType);
    }
    this.requests.push(recorded);
    this.noteConnection(request.socket, recorded);

    const behaviour = this.behaviour;
    if (behaviour.latencyMs) await sleep(behaviour.latencyMs);
    if (behaviour.heldUntil) await behaviour.heldUntil;
    const failing = behaviour.failure && (behaviour.failTimes === undefined || this.failuresSent < behaviour.failTimes);
    if (failing && behaviour.failure) {
      this.failuresSent++;
      const { status, error, body: raw } = behaviour.failure;
      if (raw !== undefined) return void response.writeHead(status, { 'content-type': 'text/plain' }).end(raw);
      const payload = { error: { message: 'mock failure', type: 'server_error', param: null, code: null, ...error } };
      return void response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
    }
    const refusal = recorded.json === undefined ? undefined : behaviour.refuse?.(recorded.json);
    if (refusal) {
      const payload = { error: { ...refusal, type: 'invalid_request_error' } };
      return void response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
    }
    switch (behaviour.garbage) {
      case 'reset':
        return void request.socket.destroy();
      case 'hang':
        return;
      case 'html':
        return void response
          .writeHead(502, { 'content-type': 'text/html' })
          .end('<html><body><h1>502 Bad Gateway</h1></body></html>');
      case 'html-200':
        return void response
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<html><body>maintenance</body></html>');
      case 'not-json':
        return void response
          .writeHead(200, { 'content-type': 'application/json' })
          .end('{"id": "chatcmpl-1", "choices": [');
      default:
        break;
    }
    await this.answer(request, response, recorded);
  }

  /**
   * The usage to report for a request. Like a real vendor, the model stops at the request's output limit
   * (`max_completion_tokens`, else `max_tokens`): a longer configured completion is cut to it.
   */
  private usage(body: any): (NonNullable<MockBehaviour['usage']> & { total_tokens: number }) | undefined {
    const usage = this.behaviour.usage === undefined ? mockDefaults.usage : this.behaviour.usage;
    if (usage === null) return undefined;
    const completion = Math.min(usage.completion_tokens, outputLimitOf(body) ?? Number.POSITIVE_INFINITY);
    return { ...usage, completion_tokens: completion, total_tokens: usage.prompt_tokens + completion };
  }

  /** Why the answer ended: `length` when the configured completion ran into the request's output limit. */
  private finishReason(body: any): 'stop' | 'length' {
    const configured = this.behaviour.usage?.completion_tokens;
    const limit = outputLimitOf(body);
    return configured !== undefined && limit !== undefined && configured > limit ? 'length' : 'stop';
  }

  private async answer(request: IncomingMessage, response: ServerResponse, recorded: RecordedRequest): Promise<void> {
    const path = (request.url ?? '/').split('?')[0]!;
    const json = (status: number, payload: unknown) =>
      void response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
    const body = recorded.json ?? {};
    const model: string = body.model ?? 'mock-model';
    const reply = this.behaviour.reply ?? mockDefaults.reply;
    const usage = this.usage(body);
    const created = Math.floor(Date.now() / 1000);

    if (path.endsWith('/chat/completions') || path.endsWith('/text/chatcompletion_v2')) {
      if (body.stream && this.behaviour.garbage !== 'json-to-stream') return this.stream(response, recorded, 'chat');
      return json(200, {
        id: 'chatcmpl-mock',
        object: 'chat.completion',
        created,
        model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: reply },
            logprobs: null,
            finish_reason: this.finishReason(body),
          },
        ],
        ...(usage ? { usage } : {}),
      });
    }
    if (path.endsWith('/completions')) {
      if (body.stream && this.behaviour.garbage !== 'json-to-stream')
        return this.stream(response, recorded, 'completions');
      return json(200, {
        id: 'cmpl-mock',
        object: 'text_completion',
        created,
        model,
        choices: [{ text: reply, index: 0, logprobs: null, finish_reason: this.finishReason(body) }],
        ...(usage ? { usage } : {}),
      });
    }
    if (path.endsWith('/embeddings')) {
      const inputs = Array.isArray(body.input) ? body.input : [body.input];
      return json(200, {
        object: 'list',
        data: inputs.map((_: unknown, index: number) => ({
          object: 'embedding',
          index,
          embedding: [0.0023, -0.0093, 0.0151],
        })),
        model,
        ...(usage ? { usage: { prompt_tokens: usage.prompt_tokens, total_tokens: usage.prompt_tokens } } : {}),
      });
    }
    if (path.endsWith('/moderations')) {
      return json(200, {
        id: 'modr-mock',
        model,
        results: [{ flagged: false, categories: { violence: false }, category_scores: { violence: 0.0001 } }],
      });
    }
    if (path.endsWith('/images/generations') || path.endsWith('/images/edits') || path.endsWith('/images/variations')) {
      const count = Number(body.n ?? recorded.form?.n ?? 1);
      return json(200, {
        created,
        data: Array.from({ length: count }, (_, index) => ({
          url: `https://images.example/${index}.png`,
          revised_prompt: body.prompt,
        })),
      });
    }
    if (path.endsWith('/audio/speech')) {
      const audio = Buffer.from(`ID3-mock-audio:${body.input ?? ''}`);
      return void response.writeHead(200, { 'content-type': 'audio/mpeg' }).end(audio);
    }
    if (path.endsWith('/audio/transcriptions') || path.endsWith('/audio/translations')) {
      const format = String(recorded.form?.response_format ?? 'json');
      if (format === 'text')
        return void response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(reply);
      if (format === 'srt')
        return void response
          .writeHead(200, { 'content-type': 'text/plain' })
          .end(`1\n00:00:00,000 --> 00:00:02,000\n${reply}\n`);
      if (format === 'vtt')
        return void response
          .writeHead(200, { 'content-type': 'text/vtt' })
          .end(`WEBVTT\n\n00:00.000 --> 00:02.000\n${reply}\n`);
      if (format === 'verbose_json')
        return json(200, { task: 'transcribe', language: 'english', duration: 2, text: reply, segments: [] });
      return json(200, { text: reply });
    }
    if (path.endsWith('/models')) {
      return json(200, {
        object: 'list',
        data: [{ id: 'gpt-4o-mini', object: 'model', created: 1, owned_by: 'system' }],
      });
    }
    return json(404, {
      error: {
        message: `Invalid URL (${request.method} ${path})`,
        type: 'invalid_request_error',
        param: null,
        code: null,
      },
    });
  }

  private async stream(
    response: ServerResponse,
    recorded: RecordedRequest,
    kind: 'chat' | 'completions',
  ): Promise<void> {
    const body = recorded.json ?? {};
    // OpenAI sends a stream's headers at once; the first chunk may take a while.
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }).flushHeaders();
    const reply = this.behaviour.reply ?? mockDefaults.reply;
    const count = Math.max(1, this.behaviour.chunks ?? 4);
    const size = Math.ceil(reply.length / count);
    const pieces = Array.from({ length: count }, (_, index) => reply.slice(index * size, (index + 1) * size));
    const includeUsage = body.stream_options?.include_usage === true;
    const base = {
      id: kind === 'chat' ? 'chatcmpl-mock' : 'cmpl-mock',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
    };
    const object = kind === 'chat' ? 'chat.completion.chunk' : 'text_completion';
    const send = (payload: unknown) => {
      recorded.eventsSent = (recorded.eventsSent ?? 0) + 1;
      response.write(`data: ${JSON.stringify(payload)}\n\n`);
    };
    const usageField = includeUsage ? { usage: null } : {};
    if (this.behaviour.azurePrelude)
      send({ id: '', object: '', created: 0, model: '', choices: [], prompt_filter_results: [{ prompt_index: 0 }] });
    let sent = 0;
    for (const piece of pieces) {
      if (this.behaviour.chunkDelayMs) await sleep(this.behaviour.chunkDelayMs);
      if (response.destroyed) return;
      const choice =
        kind === 'chat'
          ? {
              index: 0,
              delta: sent === 0 ? { role: 'assistant', content: piece } : { content: piece },
              logprobs: null,
              finish_reason: null,
            }
          : { text: piece, index: 0, logprobs: null, finish_reason: null };
      send({ ...base, object, choices: [choice], ...usageField });
      sent++;
      if (this.behaviour.garbage === 'cut-stream' && sent === 2) {
        await sleep(30); // let the two chunks leave before the connection is cut
        return void response.socket?.destroy();
      }
    }
    const finish =
      kind === 'chat'
        ? { index: 0, delta: {}, logprobs: null, finish_reason: this.finishReason(body) }
        : { text: '', index: 0, logprobs: null, finish_reason: this.finishReason(body) };
    send({ ...base, object, choices: [finish], ...usageField });
    const usage = this.usage(body);
    if (includeUsage && usage) send({ ...base, object, choices: [], usage });
    response.end('data: [DONE]\n\n');
  }
}
