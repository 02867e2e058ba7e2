// A fixed-answer upstream for the benchmark: as cheap as possible, so the figures measure the gateways. OpenAI
// chat answers at once; with "stream": true it sends 20 content chunks, a usage chunk and [DONE]. The model
// `gpt-4o-mini-2024-07-18` (a dated name with a price, so gateways bill it as usual) streams the same chunks at
// a model's pace instead: headers at once, the first token after 50 ms, then one every 10 ms. `/v1/messages`
// answers in Anthropic's Messages format and `/v1/responses` in OpenAI's Responses format, each streamed as its
// vendor streams it (the same 20 text deltas and a usage), for the gateways' native pass-through.
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

const tokens = Array.from({ length: 20 }, (_, index) => `token${index} `);
const sse = (event: Record<string, unknown> & { type: string }) =>
  `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

const claudeMessage = {
  id: 'msg_bench',
  type: 'message',
  role: 'assistant',
  model: 'claude-3-5-haiku-20241022',
  content: [{ type: 'text', text: 'Hello from the benchmark upstream.' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 9, output_tokens: 7 },
};
const claudeAnswer = JSON.stringify(claudeMessage);
// Anthropic's event sequence: message_start (input usage), one text block, message_delta (output usage).
const claudeStream = [
  sse({
    type: 'message_start',
    message: { ...claudeMessage, content: [], stop_reason: null, usage: { input_tokens: 9, output_tokens: 1 } },
  }),
  sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
  ...tokens.map((text) => sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })),
  sse({ type: 'content_block_stop', index: 0 }),
  sse({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 20 } }),
  sse({ type: 'message_stop' }),
].join('');

const responseText = tokens.join('');
const outputMessage = (text: string, status: string) => ({
  id: 'msg_bench',
  type: 'message',
  status,
  role: 'assistant',
  content: text ? [{ type: 'output_text', annotations: [], text }] : [],
});
const responsesObject = (status: string, output: unknown[], usage: unknown) => ({
  id: 'resp_bench',
  object: 'response',
  created_at: 1700000000,
  status,
  model: 'gpt-4o',
  output,
  usage,
});
const responsesUsage = {
  input_tokens: 9,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 20,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 29,
};
const responsesAnswer = JSON.stringify(
  responsesObject('completed', [outputMessage(responseText, 'completed')], responsesUsage),
);
// OpenAI's Responses event sequence for one message: created, the item and its part, 20 deltas, their ends, completed.
const at = { item_id: 'msg_bench', output_index: 0, content_index: 0 };
const responsesStream = [
  { type: 'response.created', response: responsesObject('in_progress', [], null) },
  { type: 'response.in_progress', response: responsesObject('in_progress', [], null) },
  { type: 'response.output_item.added', output_index: 0, item: outputMessage('', 'in_progress') },
  { type: 'response.content_part.added', ...at, part: { type: 'output_text', annotations: [], text: '' } },
  ...tokens.map((delta) => ({ type: 'response.output_text.delta', ...at, delta })),
  { type: 'response.output_text.done', ...at, text: responseText },
  { type: 'response.content_part.done', ...at, part: { type: 'output_text', annotations: [], text: responseText } },
  { type: 'response.output_item.done', output_index: 0, item: outputMessage(responseText, 'completed') },
  {
    type: 'response.completed',
    response: responsesObject('completed', [outputMessage(responseText, 'completed')], responsesUsage),
  },
]
  .map((event, sequence_number) => sse({ ...event, sequence_number }))
  .join('');

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
    const streamed = body.includes('"stream":true');
    if (streamed && body.includes('"model":"gpt-4o-mini-2024-07-18"')) return streamPaced(response);
    const path = request.url ?? '';
    const [whole, stream] = path.endsWith('/messages')
      ? [claudeAnswer, claudeStream]
      : path.endsWith('/responses')
        ? [responsesAnswer, responsesStream]
        : [completion, streamBody];
    if (streamed) {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      response.end(stream);
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(whole) });
    response.end(whole);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
