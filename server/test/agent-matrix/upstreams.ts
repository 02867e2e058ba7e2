import { anthropicMockKey, checkClaudeMessages } from '../mock-upstreams/anthropic.js';
import { checkGeminiBody, geminiMockKey } from '../mock-upstreams/gemini.js';
import {
  startMockUpstream,
  type MockReply,
  type MockUpstream,
  type RecordedRequest,
} from '../mock-upstreams/mock-kit.js';
import { mockResponse, type MockOutputItem } from '../mock-upstreams/openai-responses.js';
import { zhipuAuthorizationValid } from '../mock-upstreams/zhipu.js';

type Json = Record<string, unknown>;

/** The words every scripted model answers with, so that a cell can tell which answer came back. */
export const secretWord = 'periwinkle';
export const fileText = `the secret word is ${secretWord}`;
export const greeting = 'Hello from the model.';
export const thought = 'Thinking it over.';
/** The prompt of a tool round's first call: the scripted model calls a file-reading tool for it. */
export const toolPrompt = 'Read notes.txt and tell me the secret word.';

export const openaiKey = 'sk-matrix-openai';
export const compatibleKey = 'sk-matrix-reseller';
export const zhipuId = 'matrix-id';
export const zhipuSecret = 'matrix-secret';

/** What one upstream call reported, as billing must read it. */
export interface ReportedUsage {
  prompt: number;
  completion: number;
}

/** A loopback vendor API answering from the script below, with every call's usage in `reported`. */
export interface ScriptedVendor extends MockUpstream {
  reported: ReportedUsage[];
}

/** A turn as every vendor's request carries it, read from its own dialect. */
interface Turn {
  prompt: string;
  toolResult: string | undefined;
  tools: string[];
  /** The JSON schema asked for; `{}` when JSON was asked without one. */
  schema: Json | undefined;
  reasoning: boolean;
}

/** The scripted model's answer: reasoning, then a tool call or a text. */
interface ScriptedAnswer {
  reasoning: string | undefined;
  call: { name: string; args: Json } | undefined;
  text: string;
}

/** Arguments for the file-reading tools the CLIs offer (Claude Code, Codex, Gemini CLI, the chat client's). */
const toolArguments: Record<string, Json> = {
  Read: { file_path: '/work/notes.txt' },
  read_file: { file_path: '/work/notes.txt' },
  exec_command: { cmd: 'cat notes.txt' },
  Bash: { command: 'cat notes.txt' },
};

/** A value of the schema's shape (OpenAI's lower-case types or Gemini's upper-case ones). */
export function exampleOf(schema: unknown): unknown {
  const node = (schema ?? {}) as Json;
  const type = String(Array.isArray(node.type) ? node.type[0] : (node.type ?? 'object')).toLowerCase();
  if (Array.isArray(node.enum)) return node.enum[0];
  if (type === 'string') return secretWord;
  if (type === 'integer') return 42;
  if (type === 'number') return 0.5;
  if (type === 'boolean') return true;
  if (type === 'array') return [exampleOf(node.items)];
  const properties = (node.properties ?? {}) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(properties).map(([name, value]) => [name, exampleOf(value)]));
}

function answerTo(turn: Turn): ScriptedAnswer {
  const reasoning = turn.reasoning ? thought : undefined;
  if (turn.toolResult !== undefined)
    return {
      reasoning,
      call: undefined,
      text: turn.toolResult.includes(secretWord) ? `The file says ${secretWord}.` : 'No file.',
    };
  const tool = turn.prompt.includes('notes.txt') ? turn.tools.find((name) => name in toolArguments) : undefined;
  if (tool) return { reasoning, call: { name: tool, args: toolArguments[tool]! }, text: '' };
  if (turn.schema) return { reasoning, call: undefined, text: JSON.stringify(exampleOf(turn.schema)) };
  return { reasoning, call: undefined, text: greeting };
}

/** Distinct usage per call across all vendors (so a consume log matches one call), reasoning inside output. */
let calls = 0;
function usageOf(answer: ScriptedAnswer) {
  const n = calls++;
  const thoughts = answer.reasoning ? 11 : 0;
  return { prompt: 1000 + 37 * n, completion: 20 + 3 * n + thoughts, thoughts };
}

const textOfContent = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? (content as Json[]).map((part) => (typeof part.text === 'string' ? part.text : '')).join(' ')
      : '';

const sseData = (chunks: Json[], done = false) =>
  `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}${done ? 'data: [DONE]\n\n' : ''}`;

const sseEvents = (events: Json[]) =>
  events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`).join('');

// --- OpenAI chat, as OpenAI, an OpenAI-compatible reseller and Zhipu's v4 speak it ---------------------------

function chatTurn(body: Json, reasoning: boolean): Turn {
  const messages = (body.messages ?? []) as Json[];
  const last = messages.at(-1);
  const format = body.response_format as { type?: string; json_schema?: { schema?: Json } } | undefined;
  return {
    prompt: textOfContent(messages.findLast((message) => message.role === 'user')?.content),
    toolResult: last?.role === 'tool' ? textOfContent(last.content) : undefined,
    tools: ((body.tools ?? []) as { function?: { name?: string } }[]).map((tool) => String(tool.function?.name)),
    schema:
      format?.type === 'json_schema'
        ? (format.json_schema?.schema ?? {})
        : format?.type === 'json_object'
          ? {}
          : undefined,
    reasoning,
  };
}

/**
 * A chat completion, whole or streamed with usage last. OpenAI reports reasoning only as a token count; a
 * reseller of reasoning models and Zhipu send its text as `reasoning_content` (`reasoningText`).
 */
function answerChat(reply: MockReply, body: Json, turn: Turn, reported: ReportedUsage[], reasoningText: boolean) {
  const answer = answerTo(turn);
  const { prompt, completion, thoughts } = usageOf(answer);
  reported.push({ prompt, completion });
  const usage = {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    completion_tokens_details: { reasoning_tokens: thoughts },
  };
  const call = answer.call && {
    id: `call_${calls}`,
    type: 'function',
    function: { name: answer.call.name, arguments: JSON.stringify(answer.call.args) },
  };
  const reasoning = reasoningText && answer.reasoning ? { reasoning_content: answer.reasoning } : {};
  const head = { id: `chatcmpl-${calls}`, created: 1, model: body.model };
  const finish = call ? 'tool_calls' : 'stop';
  if (body.stream !== true)
    return reply.json(200, {
      ...head,
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: call ? null : answer.text,
            ...reasoning,
            ...(call ? { tool_calls: [call] } : {}),
          },
          finish_reason: finish,
        },
      ],
      usage,
    });
  const deltas: Json[] = [
    ...(reasoningText && answer.reasoning ? [{ role: 'assistant', reasoning_content: answer.reasoning }] : []),
    call
      ? { role: 'assistant', tool_calls: [{ ...call, index: 0 }] }
      : { role: 'assistant', content: answer.text.slice(0, 6) },
    ...(call ? [] : [{ content: answer.text.slice(6) }]),
  ];
  const chunks = [
    ...deltas.map((delta) => ({ choices: [{ index: 0, delta, finish_reason: null }] })),
    { choices: [{ index: 0, delta: {}, finish_reason: finish }] },
    { choices: [], usage },
  ].map((chunk) => ({ ...head, object: 'chat.completion.chunk', ...chunk }));
  return reply.stream('text/event-stream', sseData(chunks, true));
}

const openaiError = (message: string) => ({
  error: { message, type: 'invalid_request_error', param: null, code: null },
});

/** OpenAI's Responses API for the OpenAI family: the same script, OpenAI's answer objects and events. */
function answerResponses(reply: MockReply, body: Json, reported: ReportedUsage[]) {
  const items = (Array.isArray(body.input) ? body.input : [{ role: 'user', content: body.input }]) as Json[];
  const output = items.findLast((item) => item.type === 'function_call_output');
  const format = (body.text as { format?: { type?: string; schema?: Json } } | undefined)?.format;
  const reasoningAsked = (body.reasoning as { effort?: unknown } | undefined)?.effort;
  const turn: Turn = {
    prompt: textOfContent(items.findLast((item) => item.role === 'user')?.content),
    toolResult: output ? String(output.output) : undefined,
    tools: ((body.tools ?? []) as Json[]).map((tool) => String(tool.name)),
    schema: format?.type === 'json_schema' ? (format.schema ?? {}) : undefined,
    reasoning: typeof reasoningAsked === 'string' && reasoningAsked !== 'none',
  };
  const answer = answerTo(turn);
  const { prompt, completion, thoughts } = usageOf(answer);
  reported.push({ prompt, completion });
  const outputItems: MockOutputItem[] = [
    ...(answer.reasoning
      ? [{ type: 'reasoning' as const, summary: answer.reasoning, encryptedContent: 'gAAAA-matrix' }]
      : []),
    answer.call
      ? { type: 'function_call', name: answer.call.name, arguments: JSON.stringify(answer.call.args) }
      : { type: 'message', text: answer.text },
  ];
  const { response, events } = mockResponse(body, {
    output: outputItems,
    usage: { input: prompt, output: completion, reasoning: thoughts },
  });
  if (body.stream !== true) return reply.json(200, response);
  return reply.stream('text/event-stream', sseEvents(events));
}

/**
 * OpenAI (`responses: true`, chat and Responses) or an OpenAI-compatible reseller without `/v1/responses`
 * (its 404 is the one resellers answer), both checking the bearer key.
 */
export function startOpenAIVendor(options: { key: string; responses: boolean }): Promise<ScriptedVendor> {
  const reported: ReportedUsage[] = [];
  return startMockUpstream(async (request: RecordedRequest, reply) => {
    if (request.headers.authorization !== `Bearer ${options.key}`)
      return reply.json(401, openaiError('Incorrect API key provided.'));
    const body = request.json ?? {};
    if (request.method === 'POST' && request.path === '/v1/responses' && options.responses)
      return answerResponses(reply, body, reported);
    if (request.method !== 'POST' || request.path !== '/v1/chat/completions')
      return reply.json(404, openaiError(`Invalid URL (${request.method} ${request.path})`));
    if (!Array.isArray(body.messages) || body.messages.length === 0)
      return reply.json(400, openaiError("Missing required parameter: 'messages'."));
    const reasoning = typeof body.reasoning_effort === 'string' && body.reasoning_effort !== 'none';
    return answerChat(reply, body, chatTurn(body, reasoning), reported, !options.responses);
  }).then((mock) => Object.assign(mock, { reported }));
}

/** Zhipu's v4 chat API (its JWT, temperature and top_p inside (0, 1), thinking unless `thinking.type` disables it). */
export function startZhipuVendor(): Promise<ScriptedVendor> {
  const reported: ReportedUsage[] = [];
  return startMockUpstream(async (request, reply) => {
    if (!zhipuAuthorizationValid(request.headers.authorization, zhipuId, zhipuSecret))
      return reply.json(401, { error: { code: '1000', message: '身份验证失败。' } });
    if (request.method !== 'POST' || request.path !== '/api/paas/v4/chat/completions')
      return reply.json(404, { error: { code: '404', message: 'not found' } });
    const body = request.json ?? {};
    for (const name of ['temperature', 'top_p'] as const) {
      const value = body[name];
      if (typeof value === 'number' && (value <= 0 || value >= 1))
        return reply.json(400, { error: { code: '1214', message: `${name} 取值范围为 (0,1)` } });
    }
    if (!Array.isArray(body.messages) || body.messages.length === 0)
      return reply.json(400, { error: { code: '1214', message: 'messages 不能为空' } });
    // GLM-4.5 and later think unless told not to (`thinking.type` defaults to enabled).
    const thinking = (body.thinking as { type?: string } | undefined)?.type !== 'disabled';
    return answerChat(reply, body, chatTurn(body, thinking), reported, true);
  }).then((mock) => Object.assign(mock, { reported }));
}

// --- Anthropic Messages ------------------------------------------------------------------------------------

/**
 * Anthropic's Messages API: thinking when `thinking` is enabled or adaptive (unless its display is omitted),
 * structured output by `output_config.format` (or the older `output_format`), or a forced tool whose input
 * is the JSON.
 */
export function startClaudeVendor(): Promise<ScriptedVendor> {
  const reported: ReportedUsage[] = [];
  const error = (status: number, type: string, message: string, reply: MockReply) =>
    reply.json(status, { type: 'error', error: { type, message } });
  return startMockUpstream(async (request, reply) => {
    if (request.method !== 'POST' || request.path !== '/v1/messages')
      return error(404, 'not_found_error', request.path, reply);
    if (request.headers['x-api-key'] !== anthropicMockKey)
      return error(401, 'authentication_error', 'invalid x-api-key', reply);
    const body = request.json ?? {};
    if (typeof body.max_tokens !== 'number')
      return error(400, 'invalid_request_error', 'max_tokens: Field required', reply);
    const problem = checkClaudeMessages(body.messages, { systemTurns: true });
    if (problem) return error(400, 'invalid_request_error', problem, reply);
    const messages = body.messages as { role: string; content: string | Json[] }[];
    const last = messages.findLast((message) => message.role === 'user');
    const blocks = typeof last?.content === 'string' ? [{ type: 'text', text: last.content }] : (last?.content ?? []);
    const result = blocks.find((block) => block.type === 'tool_result');
    const tools = ((body.tools ?? []) as Json[]).map((tool) => String(tool.name));
    const thinking = body.thinking as { type?: string; display?: string } | undefined;
    const format = ((body.output_config as Json | undefined)?.format ?? body.output_format) as
      { schema?: Json } | undefined;
    // A forced tool (by name, or `any` tool: then the one whose description says it gives the answer, as a
    // model reading the descriptions would pick) answers with its input.
    const forced = body.tool_choice as { type?: string; name?: string } | undefined;
    const offered = (body.tools ?? []) as Json[];
    const forcedTool =
      forced?.type === 'tool'
        ? offered.find((tool) => tool.name === forced.name)
        : forced?.type === 'any'
          ? offered.find((tool) => /answer/i.test(String(tool.description)))
          : undefined;
    const turn: Turn = {
      prompt: blocks.map((block) => (block.type === 'text' ? String(block.text) : '')).join(' '),
      toolResult: result ? JSON.stringify(result.content) : undefined,
      tools,
      schema: format ? (format.schema ?? {}) : undefined,
      reasoning: (thinking?.type === 'enabled' || thinking?.type === 'adaptive') && thinking.display !== 'omitted',
    };
    const answer = answerTo(turn);
    const { prompt, completion } = usageOf(answer);
    reported.push({ prompt, completion });
    const content: Json[] = [];
    if (answer.reasoning) content.push({ type: 'thinking', thinking: answer.reasoning, signature: `sig-${calls}` });
    if (forcedTool && !answer.call)
      content.push({
        type: 'tool_use',
        id: `toolu_${calls}`,
        name: forcedTool.name,
        input: exampleOf(forcedTool.input_schema),
      });
    else if (answer.call)
      content.push({ type: 'tool_use', id: `toolu_${calls}`, name: answer.call.name, input: answer.call.args });
    else content.push({ type: 'text', text: answer.text });
    const stopReason = content.at(-1)!.type === 'tool_use' ? 'tool_use' : 'end_turn';
    const message = {
      id: `msg_${calls}`,
      type: 'message',
      role: 'assistant',
      model: body.model,
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage: { input_tokens: prompt, output_tokens: completion },
    };
    if (body.stream !== true) return reply.json(200, message);
    const events: Json[] = [
      {
        type: 'message_start',
        message: { ...message, content: [], stop_reason: null, usage: { input_tokens: prompt, output_tokens: 1 } },
      },
    ];
    for (const [index, block] of content.entries()) {
      const start =
        block.type === 'thinking'
          ? { type: 'thinking', thinking: '', signature: '' }
          : block.type === 'tool_use'
            ? { ...block, input: {} }
            : { type: 'text', text: '' };
      events.push({ type: 'content_block_start', index, content_block: start });
      const deltas =
        block.type === 'thinking'
          ? [
              { type: 'thinking_delta', thinking: block.thinking },
              { type: 'signature_delta', signature: block.signature },
            ]
          : block.type === 'tool_use'
            ? [{ type: 'input_json_delta', partial_json: JSON.stringify(block.input) }]
            : [{ type: 'text_delta', text: block.text }];
      for (const delta of deltas) events.push({ type: 'content_block_delta', index, delta });
      events.push({ type: 'content_block_stop', index });
    }
    events.push(
      {
        type: 'message_delta',
        delta: { stop_reason: stopReason, stop_sequence: null },
        usage: { output_tokens: completion },
      },
      { type: 'message_stop' },
    );
    return reply.stream('text/event-stream', sseEvents(events));
  }).then((mock) => Object.assign(mock, { reported }));
}

// --- Gemini generateContent ----------------------------------------------------------------------------------

interface GeminiPart {
  text?: string;
  thought?: boolean;
  functionCall?: Json;
  functionResponse?: { response?: unknown };
}

/**
 * Google's Generative Language API: thoughts when `thinkingConfig.includeThoughts`, JSON for
 * `responseJsonSchema` / `responseSchema`, function calls with a thought signature, thoughts counted apart.
 */
export function startGeminiVendor(): Promise<ScriptedVendor> {
  const reported: ReportedUsage[] = [];
  const googleError = (code: number, status: string, message: string) => ({ error: { code, message, status } });
  return startMockUpstream(async (request, reply) => {
    const match = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/.exec(request.path);
    if (request.method !== 'POST' || !match)
      return reply.json(404, googleError(404, 'NOT_FOUND', `path ${request.path} not found`));
    if ((request.headers['x-goog-api-key'] ?? request.query.get('key')) !== geminiMockKey)
      return reply.json(400, googleError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.'));
    const body = request.json ?? {};
    const problem = checkGeminiBody(body, false);
    if (problem) return reply.json(400, googleError(400, 'INVALID_ARGUMENT', problem));
    const stream = match[2] === 'streamGenerateContent';
    if (stream && request.query.get('alt') !== 'sse')
      return reply.json(400, googleError(400, 'INVALID_ARGUMENT', 'this mock streams SSE only'));
    const contents = body.contents as { role?: string; parts: GeminiPart[] }[];
    const responses = (contents.at(-1)?.parts ?? []).filter((part) => part.functionResponse);
    const config = (body.generationConfig ?? {}) as Json;
    const schema = (config.responseJsonSchema ?? config.responseSchema) as Json | undefined;
    const turn: Turn = {
      prompt: (
        contents.findLast((content) => content.role !== 'model' && content.parts.some((part) => part.text))?.parts ?? []
      )
        .map((part) => part.text ?? '')
        .join(' '),
      toolResult: responses.length > 0 ? JSON.stringify(responses.map((part) => part.functionResponse)) : undefined,
      tools: ((body.tools ?? []) as { functionDeclarations?: { name: string }[] }[]).flatMap((tool) =>
        (tool.functionDeclarations ?? []).map((declaration) => declaration.name),
      ),
      schema: schema ?? (config.responseMimeType === 'application/json' ? {} : undefined),
      reasoning: (config.thinkingConfig as { includeThoughts?: boolean } | undefined)?.includeThoughts === true,
    };
    const answer = answerTo(turn);
    const { prompt, completion, thoughts } = usageOf(answer);
    reported.push({ prompt, completion });
    const usageMetadata = {
      promptTokenCount: prompt,
      candidatesTokenCount: completion - thoughts,
      ...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
      totalTokenCount: prompt + completion,
    };
    const finalPart = answer.call
      ? { functionCall: { name: answer.call.name, args: answer.call.args }, thoughtSignature: `sig-${calls}` }
      : { text: answer.text };
    const parts = [...(answer.reasoning ? [{ text: answer.reasoning, thought: true }] : []), finalPart];
    const head = { modelVersion: match[1], responseId: `resp-${calls}` };
    const candidate = (candidateParts: Json[], finished: boolean) => ({
      content: { role: 'model', parts: candidateParts },
      ...(finished ? { finishReason: 'STOP' } : {}),
      index: 0,
    });
    if (!stream) return reply.json(200, { candidates: [candidate(parts, true)], usageMetadata, ...head });
    const chunks = parts.map((part, index) => ({
      candidates: [candidate([part], index === parts.length - 1)],
      usageMetadata: index === parts.length - 1 ? usageMetadata : { promptTokenCount: prompt, totalTokenCount: prompt },
      ...head,
    }));
    return reply.stream('text/event-stream', chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join(''));
  }).then((mock) => Object.assign(mock, { reported }));
}
