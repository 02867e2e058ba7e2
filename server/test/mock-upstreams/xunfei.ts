import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { fixture, type RecordedRequest } from './mock-kit.js';

export interface XunfeiMockOptions {
  appId: string;
  apiSecret: string;
  apiKey: string;
}

export interface XunfeiMock {
  /** `http://127.0.0.1:<port>`: the channel base URL (the adaptor turns it into ws://). */
  url: string;
  /** The request frames received (parsed), with their path. */
  frames: Array<{ path: string; frame: Record<string, any> }>;
  handshakes: RecordedRequest[];
  close(): Promise<void>;
}

const vendor = 'xunfei';
const domains: Record<string, string> = {
  '/v1.1/chat': 'lite',
  '/v2.1/chat': 'generalv2',
  '/v3.1/chat': 'generalv3',
  '/chat/pro-128k': 'pro-128k',
  '/v3.5/chat': 'generalv3.5',
  '/chat/max-32k': 'max-32k',
  '/v4.0/chat': '4.0Ultra',
};

/** Checks the handshake query like Spark: the signature over host, date and request line, a fresh date. */
function handshakeProblem(
  path: string,
  query: URLSearchParams,
  hostHeader: string,
  options: XunfeiMockOptions,
): { status: number; message: string } | undefined {
  const date = query.get('date') ?? '';
  const host = query.get('host') ?? '';
  const authorization = Buffer.from(query.get('authorization') ?? '', 'base64').toString();
  if (!date || !host || !authorization) return { status: 401, message: 'authorization, date and host are required' };
  if (host !== hostHeader) return { status: 401, message: 'host does not match' };
  if (Math.abs(Date.parse(date) - Date.now()) > 5 * 60 * 1000)
    return {
      status: 403,
      message: 'HMAC signature cannot be verified, a valid date or x-date header is required for HMAC Authentication',
    };
  const fields = Object.fromEntries(
    [...authorization.matchAll(/(\w+)="([^"]*)"/g)].map((match) => [match[1], match[2]]),
  );
  if (fields.api_key !== options.apiKey && fields.username !== options.apiKey)
    return { status: 401, message: 'HMAC signature cannot be verified, api key not found' };
  if (fields.algorithm !== 'hmac-sha256' || fields.headers !== 'host date request-line')
    return { status: 401, message: 'HMAC algorithm unsupported' };
  const expected = createHmac('sha256', options.apiSecret)
    .update(`host: ${host}\ndate: ${date}\nGET ${path} HTTP/1.1`)
    .digest('base64');
  if (fields.signature !== expected) return { status: 401, message: 'HMAC signature does not match' };
  return undefined;
}

/**
 * A local Spark WebSocket server. The HTTP upgrade is refused with 401/403 and Spark's JSON message when the
 * signature, host or date is wrong; after the handshake it checks the frame (app_id, domain of the path,
 * messages) and replays the recorded frames, then closes.
 */
export async function startXunfeiMock(options: XunfeiMockOptions): Promise<XunfeiMock> {
  const frames: XunfeiMock['frames'] = [];
  const handshakes: RecordedRequest[] = [];
  const server = createServer((_request, response) => {
    response.writeHead(426).end();
  });
  const sockets = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
    handshakes.push({ method: 'GET', path: url.pathname, query: url.searchParams, headers, body: '', json: undefined });
    const problem = domains[url.pathname]
      ? handshakeProblem(url.pathname, url.searchParams, request.headers.host ?? '', options)
      : { status: 404, message: 'no Route matched with those values' };
    if (problem) {
      const body = JSON.stringify({ message: problem.message });
      socket.end(
        `HTTP/1.1 ${problem.status} Refused\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
      return;
    }
    sockets.handleUpgrade(request, socket, head, (client) => {
      client.once('message', (data) => {
        const frame = JSON.parse(String(data)) as Record<string, any>;
        frames.push({ path: url.pathname, frame });
        const reply = (name: string) => {
          for (const line of fixture(vendor, name).trim().split('\n')) client.send(line);
          client.close();
        };
        const text = frame.payload?.message?.text as Array<{ role: string; content: string }> | undefined;
        const invalid =
          frame.header?.app_id !== options.appId
            ? 11200
            : frame.parameter?.chat?.domain !== domains[url.pathname]
              ? 10163
              : !Array.isArray(text) || text.length === 0
                ? 10163
                : 0;
        if (invalid) {
          client.send(
            JSON.stringify({
              header: {
                code: invalid,
                message: invalid === 11200 ? 'licc failed' : 'invalid domain or messages',
                sid: 'mock',
                status: 2,
              },
            }),
          );
          return client.close();
        }
        if (text!.some((message) => message.content.includes('违禁'))) return reply('error.jsonl');
        if (frame.payload?.functions?.text?.length && text!.at(-1)?.role === 'user')
          return reply('function-call.jsonl');
        return reply('stream.jsonl');
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    frames,
    handshakes,
    close: async () => {
      for (const client of sockets.clients) client.terminate();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
