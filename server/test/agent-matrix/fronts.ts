import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import { droppedHeader } from '../../src/relay/fronts/dropped-header.js';
import { fileText, toolPrompt } from './upstreams.js';

type Json = Record<string, unknown>;

export const features = ['plain', 'stream', 'tool round', 'structured output', 'reasoning'] as const;
export type Feature = (typeof features)[number];

/** One call to a front, as a recorded client makes it. */
export interface FrontRequest {
  path: string;
  headers: Record<string, string>;
  body: Json;
  stream: boolean;
}

/** A front's answer, whole or streamed, read into what the cells check. */
export interface Answer {
  text: string;
  reasoning: string;
  reasoningTokens: number;
  calls: { id: string; name: string; args: Json; signature?: string }[];
  /** The items or blocks the client sends back in its next turn (Responses output, Claude content). */
  replay: Json[];
}

export interface FrontCall {
  status: number;
  /** `x-modelgate-dropped`, empty when absent. */
  dropped: string;
  answer: Answer;
  /** The body as read, for failure messages. */
  raw: string;
}

/** A front of the gateway, driven by the requests of the client that speaks its dialect. */
export interface Front {
  name: string;
  /** The model its client asks for (each channel maps it to its vendor's own). */
  model: string;
  request(feature: Feature): FrontRequest;
  /** The tool round's second call: the first call's request with the model's call and the tool's result. */
  withToolResult(request: FrontRequest, answer: Answer): FrontRequest;
  /** The JSON schema a structured-output request asked for. */
  schemaOf(request: FrontRequest): Json;
  send(url: string, key: string, request: FrontRequest): Promise<FrontCall>;
}

const fixture = (path: string): { path: string; headers: Record<string, string>; body: Json } =>
  JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as never;

const clone = <Value>(value: Value): Value => structuredClone(value);

/** The schema the structured-output cells ask for (Codex's `--output-schema`, a chat client's json_schema). */
export const answerSchema = {
  type: 'object',
  properties: { secret_word: { type: 'string' }, confidence: { type: 'number' } },
  required: ['secret_word', 'confidence'],
  additionalProperties: false,
};

const emptyAnswer = (): Answer => ({ text: '', reasoning: '', reasoningTokens: 0, calls: [], replay: [] });

/** The `data:` payloads of an SSE body, parsed (`[DONE]` left out). */
function sseData(body: string): Json[] {
  return body
    .split(/\r?\n\r?\n/)
    .flatMap((event) => event.split(/\r?\n/).filter((line) => line.startsWith('data:')))
    .map((line) => line.slice(5).trim())
    .filter((data) => data !== '' && data !== '[DONE]')
    .map((data) => JSON.parse(data) as Json);
}

async function post(
  url: string,
  request: FrontRequest,
  auth: Record<string, string>,
  read: (body: string, stream: boolean) => Answer,
): Promise<FrontCall> {
  const response = await fetch(url + request.path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...request.headers, ...auth },
    body: JSON.stringify(request.body),
  });
  const raw = await response.text();
  let answer = emptyAnswer();
  if (response.status === 200) answer = read(raw, request.stream);
  return { status: response.status, dropped: response.headers.get(droppedHeader) ?? '', answer, raw };
}

const parseArguments = (text: unknown): Json =>
  typeof text === 'string' && text !== '' ? (JSON.parse(text) as Json) : {};

// --- chat completions (an OpenAI SDK client: openai 7.59) ----------------------------------------------------

const readFileTool = {
  type: 'function',
  function: {
    name: 'read_file',
    description: 'Reads a file of the workspace.',
    parameters: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] },
  },
};

function readChat(raw: string, stream: boolean): Answer {
  const answer = emptyAnswer();
  const usageOf = (usage: Json | undefined) => {
    const details = usage?.completion_tokens_details as { reasoning_tokens?: number } | undefined;
    answer.reasoningTokens = details?.reasoning_tokens ?? answer.reasoningTokens;
  };
  if (!stream) {
    const completion = JSON.parse(raw) as { choices: { message: Json }[]; usage?: Json };
    const message = completion.choices[0]!.message;
    answer.text = String(message.content ?? '');
    answer.reasoning = String(message.reasoning_content ?? '');
    for (const call of (message.tool_calls ?? []) as { id: string; function: { name: string; arguments: string } }[])
      answer.calls.push({ id: call.id, name: call.function.name, args: parseArguments(call.function.arguments) });
    usageOf(completion.usage);
    return answer;
  }
  const argumentsText: string[] = [];
  for (const chunk of sseData(raw)) {
    usageOf(chunk.usage as Json | undefined);
    const delta = ((chunk.choices ?? []) as { delta?: Json }[])[0]?.delta ?? {};
    answer.text += String(delta.content ?? '');
    answer.reasoning += String(delta.reasoning_content ?? '');
    for (const call of (delta.tool_calls ?? []) as {
      index: number;
      id?: string;
      function?: { name?: string; arguments?: string };
    }[]) {
      if (call.id) answer.calls[call.index] = { id: call.id, name: call.function?.name ?? '', args: {} };
      argumentsText[call.index] = (argumentsText[call.index] ?? '') + (call.function?.arguments ?? '');
    }
  }
  answer.calls.forEach((call, index) => (call.args = parseArguments(argumentsText[index])));
  return answer;
}

export const chatFront: Front = {
  name: 'chat completions',
  model: 'gpt-4o',
  request(feature) {
    const body: Json = {
      model: this.model,
      messages: [
        { role: 'system', content: 'You are a helpful assistant.' },
        { role: 'user', content: feature === 'tool round' ? toolPrompt : 'Say hi.' },
      ],
    };
    const stream = feature !== 'plain';
    if (stream) Object.assign(body, { stream: true, stream_options: { include_usage: true } });
    if (feature === 'tool round') body.tools = [readFileTool];
    if (feature === 'structured output')
      body.response_format = {
        type: 'json_schema',
        json_schema: { name: 'answer', strict: true, schema: answerSchema },
      };
    if (feature === 'reasoning') body.reasoning_effort = 'high';
    return { path: '/v1/chat/completions', headers: {}, body, stream };
  },
  withToolResult(request, answer) {
    const next = clone(request);
    const call = answer.calls[0]!;
    (next.body.messages as Json[]).push(
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } },
        ],
      },
      { role: 'tool', tool_call_id: call.id, content: fileText },
    );
    return next;
  },
  schemaOf: () => answerSchema,
  send: (url, key, request) => post(url, request, { authorization: `Bearer ${key}` }, readChat),
};

// --- Responses (Codex CLI 0.169's request) -------------------------------------------------------------------

const codexRequest = fixture(
  '../../src/relay/fronts/responses/__fixtures__/codex-0.169.0-request.json',
) as unknown as Json;

/** A Responses answer object read into an Answer (the same for a whole answer and a stream's last event). */
function readResponseObject(response: Json): Answer {
  const answer = emptyAnswer();
  for (const item of (response.output ?? []) as Json[]) {
    answer.replay.push(item);
    if (item.type === 'message')
      answer.text += ((item.content ?? []) as Json[]).map((part) => String(part.text ?? '')).join('');
    if (item.type === 'reasoning')
      answer.reasoning += ((item.summary ?? []) as Json[]).map((part) => String(part.text ?? '')).join('');
    if (item.type === 'function_call')
      answer.calls.push({ id: String(item.call_id), name: String(item.name), args: parseArguments(item.arguments) });
  }
  const details = (response.usage as Json | undefined)?.output_tokens_details as
    { reasoning_tokens?: number } | undefined;
  answer.reasoningTokens = details?.reasoning_tokens ?? 0;
  return answer;
}

/** The response a Responses stream ended with (response.completed), as its events built it. */
function readResponsesEvents(events: Json[]): Answer {
  const last = events.findLast((event) => event.type === 'response.completed');
  if (!last) throw new Error(`no response.completed among ${events.map((event) => String(event.type)).join(', ')}`);
  const answer = readResponseObject(last.response as Json);
  // The deltas must carry the text the final object holds: a client shows those, not the last event.
  const streamed = events
    .filter((event) => event.type === 'response.output_text.delta')
    .map((event) => String(event.delta))
    .join('');
  if (streamed !== answer.text) throw new Error(`streamed text "${streamed}" differs from "${answer.text}"`);
  return answer;
}

function codexBody(feature: Feature): Json {
  const body = clone(codexRequest);
  const input = body.input as Json[];
  const prompt = feature === 'tool round' ? toolPrompt : 'Say hi.';
  input[input.length - 1] = { type: 'message', role: 'user', content: [{ type: 'input_text', text: prompt }] };
  if (feature !== 'tool round') body.tools = (body.tools as Json[]).filter((tool) => tool.type === 'function');
  if (feature === 'plain') body.stream = false;
  if (feature === 'structured output')
    body.text = { format: { type: 'json_schema', name: 'codex_output_schema', strict: true, schema: answerSchema } };
  if (feature === 'reasoning') body.reasoning = { effort: 'high', summary: 'auto' };
  return body;
}

function responsesToolResult(request: FrontRequest, answer: Answer): FrontRequest {
  const next = clone(request);
  const call = answer.calls[0]!;
  // Codex keeps the conversation itself (store false): the answer's items, then the command's output.
  (next.body.input as Json[]).push(...answer.replay, {
    type: 'function_call_output',
    call_id: call.id,
    output: fileText,
  });
  return next;
}

export const responsesFront: Front = {
  name: 'Responses over HTTP',
  model: 'gpt-5-codex',
  request(feature) {
    const body = codexBody(feature);
    return { path: '/v1/responses', headers: {}, body, stream: body.stream === true };
  },
  withToolResult: responsesToolResult,
  schemaOf: () => answerSchema,
  send: (url, key, request) =>
    post(url, request, { authorization: `Bearer ${key}` }, (raw, stream) =>
      stream ? readResponsesEvents(sseData(raw)) : readResponseObject(JSON.parse(raw) as Json),
    ),
};

/**
 * Responses over WebSocket, as Codex's built-in provider speaks it: `GET /v1/responses` upgraded, with the
 * key and `openai-beta: responses_websockets=2026-02-06` at the handshake, then one `response.create` frame
 * per turn and the stream's events back as JSON messages. A turn has no headers: x-modelgate-dropped cannot
 * name anything, so its cells must carry every feature.
 */
export const responsesWebSocketFront: Front = {
  ...responsesFront,
  name: 'Responses over WebSocket',
  request(feature) {
    const body = codexBody(feature);
    delete body.stream;
    return { path: '/v1/responses', headers: {}, body, stream: true };
  },
  send(url, key, request) {
    return new Promise<FrontCall>((resolve, reject) => {
      const socket = new WebSocket(`${url.replace(/^http/, 'ws')}${request.path}`, {
        headers: { authorization: `Bearer ${key}`, 'openai-beta': 'responses_websockets=2026-02-06' },
      });
      const events: Json[] = [];
      socket.on('unexpected-response', (_request, response) => {
        resolve({ status: response.statusCode ?? 0, dropped: '', answer: emptyAnswer(), raw: '' });
        socket.terminate();
      });
      socket.on('error', reject);
      socket.on('open', () => socket.send(JSON.stringify({ type: 'response.create', ...request.body })));
      socket.on('message', (data) => {
        const event = JSON.parse(String(data)) as Json;
        events.push(event);
        if (typeof event.type === 'string' && /^(response\.(completed|failed|incomplete)|error)$/.test(event.type)) {
          socket.close();
          try {
            resolve({ status: 200, dropped: '', answer: readResponsesEvents(events), raw: JSON.stringify(events) });
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        }
      });
    });
  },
};

// --- Anthropic Messages (Claude Code 2.1.332's requests) -----------------------------------------------------

const claudeFirst = fixture('../../src/relay/agent-matrix/__fixtures__/claude-code-2.1.332-first.json');
const claudeToolResult = fixture('../../src/relay/agent-matrix/__fixtures__/claude-code-2.1.332-tool-result.json');

function readClaude(raw: string, stream: boolean): Answer {
  const answer = emptyAnswer();
  let blocks: Json[];
  if (!stream) blocks = (JSON.parse(raw) as { content: Json[] }).content;
  else {
    blocks = [];
    const partial: string[] = [];
    for (const event of sseData(raw)) {
      const index = Number(event.index);
      if (event.type === 'content_block_start') blocks[index] = clone(event.content_block as Json);
      if (event.type !== 'content_block_delta') continue;
      const delta = event.delta as Json;
      const block = blocks[index]!;
      if (delta.type === 'text_delta') block.text = String(block.text ?? '') + String(delta.text);
      if (delta.type === 'thinking_delta') block.thinking = String(block.thinking ?? '') + String(delta.thinking);
      if (delta.type === 'signature_delta') block.signature = String(delta.signature);
      if (delta.type === 'input_json_delta') partial[index] = (partial[index] ?? '') + String(delta.partial_json);
    }
    blocks.forEach((block, index) => {
      if (block.type === 'tool_use') block.input = parseArguments(partial[index]);
    });
  }
  for (const block of blocks) {
    answer.replay.push(block);
    if (block.type === 'text') answer.text += String(block.text);
    if (block.type === 'thinking') answer.reasoning += String(block.thinking);
    if (block.type === 'tool_use')
      answer.calls.push({ id: String(block.id), name: String(block.name), args: block.input as Json });
  }
  return answer;
}

export const anthropicFront: Front = {
  name: 'Anthropic messages',
  model: 'claude-opus-5-5',
  request(feature) {
    const body = clone(claudeFirst.body);
    const first = (body.messages as { content: Json[] }[])[0]!;
    first.content[first.content.length - 1] = { type: 'text', text: feature === 'tool round' ? toolPrompt : 'Say hi.' };
    if (feature === 'plain') body.stream = false;
    if (feature !== 'tool round') delete body.tools;
    if (feature === 'structured output')
      body.output_config = { ...(body.output_config as Json), format: { type: 'json_schema', schema: answerSchema } };
    // Claude Code asks for thinking it does not show (display omitted); a client that shows it asks for it.
    if (feature === 'reasoning') {
      body.thinking = { type: 'adaptive' };
      body.output_config = { effort: 'high' };
    }
    return { path: claudeFirst.path, headers: claudeFirst.headers, body, stream: body.stream === true };
  },
  withToolResult(request, answer) {
    const next = clone(request);
    const recorded = (claudeToolResult.body.messages as { content: Json[] }[]).at(-1)!.content[0]!;
    (next.body.messages as Json[]).push(
      { role: 'assistant', content: answer.replay },
      {
        role: 'user',
        content: [{ ...recorded, tool_use_id: answer.calls[0]!.id, content: fileText, is_error: false }],
      },
    );
    return next;
  },
  schemaOf: () => answerSchema,
  send: (url, key, request) => post(url, request, { 'x-api-key': key }, readClaude),
};

// --- Gemini generateContent (Gemini CLI 0.61's requests) -----------------------------------------------------

const geminiToolRound = fixture('../../src/relay/fronts/gemini/__fixtures__/gemini-cli-0.61.0-request.json');
const geminiClassifier = fixture('../../src/relay/agent-matrix/__fixtures__/gemini-cli-0.61.0-router-classifier.json');

function readGemini(raw: string, stream: boolean): Answer {
  const answer = emptyAnswer();
  const chunks = stream ? sseData(raw) : [JSON.parse(raw) as Json];
  for (const chunk of chunks) {
    const candidate = ((chunk.candidates ?? []) as { content?: { parts?: Json[] } }[])[0];
    for (const part of candidate?.content?.parts ?? []) {
      answer.replay.push(part);
      if (typeof part.text === 'string') {
        if (part.thought === true) answer.reasoning += part.text;
        else answer.text += part.text;
      }
      const call = part.functionCall as { id?: string; name: string; args?: Json } | undefined;
      if (call)
        answer.calls.push({
          id: call.id ?? call.name,
          name: call.name,
          args: call.args ?? {},
          ...(typeof part.thoughtSignature === 'string' ? { signature: part.thoughtSignature } : {}),
        });
    }
    const thoughts = (chunk.usageMetadata as { thoughtsTokenCount?: number } | undefined)?.thoughtsTokenCount;
    if (thoughts) answer.reasoningTokens = thoughts;
  }
  return answer;
}

const geminiPath = (model: string, stream: boolean) =>
  `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;

export const geminiFront: Front = {
  name: 'Gemini',
  model: 'gemini-2.5-flash',
  request(feature) {
    const headers = geminiToolRound.headers;
    if (feature === 'structured output') {
      // The CLI's router asks its classifier model for JSON of a schema, whole.
      const body = clone(geminiClassifier.body);
      return { path: geminiPath(this.model, false), headers, body, stream: false };
    }
    const body = clone(geminiToolRound.body);
    const contents = body.contents as { role: string; parts: Json[] }[];
    contents.splice(1);
    contents[0]!.parts[1] = { text: feature === 'tool round' ? toolPrompt : 'Say hi.' };
    if (feature !== 'tool round') delete body.tools;
    const config = body.generationConfig as Json;
    // The recorded turn asks for thoughts with a budget; without -m the CLI asks for a thinking level.
    if (feature === 'reasoning') config.thinkingConfig = { includeThoughts: true, thinkingLevel: 'HIGH' };
    else delete config.thinkingConfig;
    const stream = feature !== 'plain';
    return { path: geminiPath(this.model, stream), headers, body, stream };
  },
  withToolResult(request, answer) {
    const next = clone(request);
    const call = answer.calls[0]!;
    (next.body.contents as Json[]).push(
      { role: 'model', parts: answer.replay.filter((part) => part.thought !== true) },
      { role: 'user', parts: [{ functionResponse: { id: call.id, name: call.name, response: { output: fileText } } }] },
    );
    return next;
  },
  schemaOf: (request) => (request.body.generationConfig as { responseJsonSchema: Json }).responseJsonSchema,
  send: (url, key, request) => post(url, request, { 'x-goog-api-key': key }, readGemini),
};
