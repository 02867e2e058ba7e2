// A fixed-answer OpenAI-compatible upstream for the benchmark: as cheap as possible, so the figures measure
// the gateways. Chat answers at once; with "stream": true it sends 20 content chunks, a usage chunk and [DONE].
// The model `gpt-4o-mini-2024-07-18` (a dated name with a price, so gateways bill it as usual) streams the
// same chunks at a model's pace instead: headers at once, the first token after 50 ms, then one every 10 ms.
import { createServer, type ServerResponse } from 'node:http';

const port = Number(process.argv[2] ?? 0);

const completion = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1700000000,
  model: 'gpt-4o-mini',
  choices: [
    { index: 0, message: { role: 'assistant', content: 'Hello from the benchmark upstream.' }, finish_reason: 'stop' },
  ],
  usage: { prompt_tokens: 9, completion_tokens: 7, total_tokens: 16 },
});

const chunk = (content: string) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 1700000000,
    model: 'gpt-4o-mini',
    choices: [{ index: 0, delta: { content }, finish_reason: null }],
  })}\n\n`;
const streamBody =
  Array.from({ length: 20 }, (_, index) => chunk(`token${index} `)).join('') +
  `data: ${JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 1700000000,
    model: 'gpt-4o-mini',
    choices: [],
    usage: { prompt_tokens: 9, completion_tokens: 20, total_tokens: 29 },
  })}\n\ndata: [DONE]\n\n`;

const firstTokenMs = 50;
const tokenIntervalMs = 10;
const streamEvents = streamBody.split(/(?<=\n\n)/);

function streamPaced(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.flushHeaders();
  let next = 0;
  const send = () => {
    if (response.destroyed) return;
    // The last content token goes out with the usage chunk and [DONE], as OpenAI's final read does.
    if (next >= 19) return void response.end(streamEvents.slice(next).join(''));
    response.write(streamEvents[next++]);
    setTimeout(send, tokenIntervalMs);
  };
  setTimeout(send, firstTokenMs);
}

const server = createServer((request, response) => {
  const parts: Buffer[] = [];
  request.on('data', (part: Buffer) => parts.push(part));
  request.on('end', () => {
    const body = Buffer.concat(parts).toString();
    if (body.includes('"stream":true') && body.includes('"model":"gpt-4o-mini-2024-07-18"'))
      return streamPaced(response);
    if (body.includes('"stream":true')) {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      response.end(streamBody);
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(completion) });
    response.end(completion);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
