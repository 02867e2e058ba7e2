import type {
  AdaptorTools,
  OpenedAnswer,
  RelayChunk,
  UpstreamRequest,
  UpstreamResponse,
} from '../../src/relay/adaptor.js';

const bodyInit = (request: UpstreamRequest) =>
  typeof request.body === 'string' || request.body === undefined ? request.body : new Uint8Array(request.body);

/** Sends a request and hands over the answer with its body unread, as the pipeline's `tools.stream` does. */
export async function openStreaming(request: UpstreamRequest): Promise<OpenedAnswer> {
  const response = await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: bodyInit(request),
  });
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  const stream = response.body;
  async function* body(): AsyncIterable<Buffer> {
    if (stream) for await (const chunk of stream) yield Buffer.from(chunk as Uint8Array);
  }
  return { status: response.status, headers, body: body() };
}

/** Sends an adaptor's request with fetch and reads the whole answer (tests only; the server uses its pool). */
export async function sendWhole(request: UpstreamRequest): Promise<UpstreamResponse> {
  const answer = await openStreaming(request);
  const parts: Buffer[] = [];
  for await (const part of answer.body) parts.push(part);
  return { status: answer.status, headers: answer.headers, body: Buffer.concat(parts) };
}

/** Sends a request and yields its body as it arrives. */
export async function* sendStreaming(request: UpstreamRequest): AsyncIterable<Buffer> {
  yield* (await openStreaming(request)).body;
}

/** The adaptor tools over fetch (tests only; the server's go through its pooled client). */
export const fetchTools: AdaptorTools = { send: sendWhole, stream: openStreaming };

/** Bytes cut into small pieces (mid-line and mid-character), as a network would deliver them. */
export async function* pieces(bytes: Buffer | string, pieceSize = 7): AsyncIterable<Buffer> {
  const buffer = Buffer.from(bytes);
  for (let start = 0; start < buffer.length; start += pieceSize) yield buffer.subarray(start, start + pieceSize);
}

/**
 * A converted stream collected: the parsed chunks and the last one, the joined content and reasoning, tool
 * calls merged by index, the last usage and finish reason.
 */
export async function collect(chunks: AsyncIterable<RelayChunk>) {
  // Tests read the chunks loosely.
  const parsed: any[] = [];
  let content = '';
  let reasoning = '';
  let usage: RelayChunk['usage'];
  let finishReason: string | null = null;
  const toolCalls: { id?: string; name?: string; arguments: string }[] = [];
  for await (const chunk of chunks) {
    const value = JSON.parse(chunk.data);
    parsed.push(value);
    if (chunk.usage) usage = chunk.usage;
    for (const choice of value.choices ?? []) {
      content += choice.delta?.content ?? '';
      reasoning += choice.delta?.reasoning_content ?? '';
      if (choice.finish_reason) finishReason = choice.finish_reason;
      for (const call of choice.delta?.tool_calls ?? []) {
        const slot = (toolCalls[call.index] ??= { arguments: '' });
        if (call.id) slot.id = call.id;
        if (call.function?.name) slot.name = call.function.name;
        slot.arguments += call.function?.arguments ?? '';
      }
    }
  }
  return { chunks: parsed, last: parsed.at(-1), content, reasoning, usage, finishReason, toolCalls };
}

/** A whole answer from a fixture, as the pipeline would hand it over. */
export function wholeResponse(body: string, status = 200, contentType = 'application/json'): UpstreamResponse {
  return { status, headers: { 'content-type': contentType }, body: Buffer.from(body) };
}
