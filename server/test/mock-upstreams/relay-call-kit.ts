import type { RelayChunk, UpstreamRequest, UpstreamResponse } from '../../src/relay/adaptor.js';

const bodyInit = (request: UpstreamRequest) =>
  typeof request.body === 'string' || request.body === undefined ? request.body : new Uint8Array(request.body);

/** Sends an adaptor's request with fetch and reads the whole answer (tests only; the server uses its pool). */
export async function sendWhole(request: UpstreamRequest): Promise<UpstreamResponse> {
  const response = await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: bodyInit(request),
  });
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()) };
}

/** Sends a request and yields its body as it arrives. */
export async function* sendStreaming(request: UpstreamRequest): AsyncIterable<Buffer> {
  const response = await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: bodyInit(request),
  });
  if (!response.body) return;
  for await (const chunk of response.body) yield Buffer.from(chunk as Uint8Array);
}

/** A fixture's bytes cut into small pieces (mid-line and mid-character), as a network would deliver them. */
export async function* piecesOf(text: string, pieceSize = 7): AsyncIterable<Buffer> {
  const bytes = Buffer.from(text);
  for (let start = 0; start < bytes.length; start += pieceSize) yield bytes.subarray(start, start + pieceSize);
}

/** Collects a converted stream: the parsed chunks, the concatenated content and the last usage. */
export async function collectChunks(chunks: AsyncIterable<RelayChunk>) {
  const parsed: Array<Record<string, any>> = [];
  let content = '';
  let usage: RelayChunk['usage'];
  for await (const chunk of chunks) {
    const payload = JSON.parse(chunk.data) as Record<string, any>;
    parsed.push(payload);
    content += payload.choices?.[0]?.delta?.content ?? '';
    if (chunk.usage) usage = chunk.usage;
  }
  return { parsed, content, usage, last: parsed.at(-1) };
}

/** A whole answer from a fixture, as the pipeline would hand it over. */
export function wholeResponse(body: string, status = 200, contentType = 'application/json'): UpstreamResponse {
  return { status, headers: { 'content-type': contentType }, body: Buffer.from(body) };
}
