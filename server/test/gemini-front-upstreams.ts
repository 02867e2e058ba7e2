import { checkGeminiBody, geminiMockKey } from './mock-upstreams/gemini.js';
import { startMockUpstream, type MockReply, type MockUpstream } from './mock-upstreams/mock-kit.js';

/** The key an OpenAI channel of these tests holds. */
export const openaiUpstreamKey = 'sk-openai-upstream';

/** What an upstream reported for one call, as billing must read it (prompt and completion tokens). */
export interface ReportedUsage {
  model: string;
  prompt: number;
  completion: number;
}

/** A tool call the scripted model makes. */
export interface ScriptedCall {
  name: string;
  args: Record<string, unknown>;
}

/**
 * How the scripted model answers a turn: `toolCall` decides whether it calls one of the offered tools for the
 * user's prompt; `answer` is its text, to the prompt or (once a tool answered) to the tool's result.
 */
export interface Script {
  toolCall(prompt: string, tools: string[]): ScriptedCall | undefined;
  answer(prompt: string, toolResult: string | undefined): string;
}

/** A loopback upstream with what it reported per call and every request it got. */
export interface ScriptedUpstream extends MockUpstream {
  reported: ReportedUsage[];
}

type Json = Record<string, unknown>;

const googleError = (code: number, status: string, message: string) => ({ error: { code, message, status } });

interface GeminiTurn {
  role?: string;
  parts?: { text?: string; functionResponse?: { response?: unknown } }[];
}

/** The last user prompt's text and, when the conversation ends with function responses, their results. */
function geminiTurn(contents: GeminiTurn[]): { prompt: string; toolResult: string | undefined } {
  const lastUser = contents.findLast(
    (content) => content.role !== 'model' && content.parts?.some((part) => typeof part.text === 'string'),
  );
  const prompt = (lastUser?.parts ?? []).map((part) => part.text ?? '').join(' ');
  const responses = (contents.at(-1)?.parts ?? []).filter((part) => part.functionResponse);
  const toolResult = responses.length > 0 ? JSON.stringify(responses.map((part) => part.functionResponse)) : undefined;
  return { prompt, toolResult };
}

const declaredTools = (body: Json): string[] =>
  ((body.tools as { functionDeclarations?: { name: string }[] }[] | undefined) ?? []).flatMap((tool) =>
    (tool.functionDeclarations ?? []).map((declaration) => declaration.name),
  );

/**
 * A loopback Generative Language API answering from a script: generateContent, streamGenerateContent (SSE
 * only, as the gateway asks), embedContent and batchEmbedContents; each answer reports its own usage, with
 * thoughts and cached tokens, and every model turn with a function call carries a thought signature.
 */
export function startScriptedGeminiUpstream(script: Script): Promise<ScriptedUpstream> {
  const reported: ReportedUsage[] = [];
  return startMockUpstream(async (request, reply) => {
    const match = /^\/v1beta\/models\/([^/:]+):(\w+)$/.exec(request.path);
    if (request.method !== 'POST' || !match)
      return reply.json(404, googleError(404, 'NOT_FOUND', `path ${request.path} not found`));
    if ((request.headers['x-goog-api-key'] ?? request.query.get('key')) !== geminiMockKey)
      return reply.json(400, googleError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.'));
    const [, model = '', method = ''] = match;
    const body = request.json ?? {};
    if (method === 'embedContent' || method === 'batchEmbedContents') return answerEmbeddings(reply, method, body);
    if (method !== 'generateContent' && method !== 'streamGenerateContent')
      return reply.json(404, googleError(404, 'NOT_FOUND', `method ${method} not found`));
    const problem = checkGeminiBody(body, false);
    if (problem) return reply.json(400, googleError(400, 'INVALID_ARGUMENT', problem));
    const { prompt, toolResult } = geminiTurn(body.contents as GeminiTurn[]);
    const call = toolResult === undefined ? script.toolCall(prompt, declaredTools(body)) : undefined;
    const n = reported.length;
    const usage = {
      promptTokenCount: 1000 + 37 * n,
      candidatesTokenCount: 20 + 3 * n,
      thoughtsTokenCount: 7 + n,
      cachedContentTokenCount: 512,
    };
    const total = usage.promptTokenCount + usage.candidatesTokenCount + usage.thoughtsTokenCount;
    reported.push({
      model,
      prompt: usage.promptTokenCount,
      completion: usage.candidatesTokenCount + usage.thoughtsTokenCount,
    });
    const head = { modelVersion: model, responseId: `resp-${n}` };
    const finalParts = call
      ? [{ functionCall: call, thoughtSignature: `sig-${n}` }]
      : [{ text: script.answer(prompt, toolResult) }];
    if (method === 'generateContent')
      return reply.json(200, {
        candidates: [{ content: { role: 'model', parts: finalParts }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { ...usage, totalTokenCount: total },
        ...head,
      });
    if (request.query.get('alt') !== 'sse')
      return reply.json(400, googleError(400, 'INVALID_ARGUMENT', 'this mock streams SSE only'));
    const events = [
      {
        candidates: [{ content: { role: 'model', parts: [{ text: 'Thinking it over.', thought: true }] }, index: 0 }],
        usageMetadata: { promptTokenCount: usage.promptTokenCount, totalTokenCount: usage.promptTokenCount },
        ...head,
      },
      {
        candidates: [{ content: { role: 'model', parts: finalParts }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { ...usage, totalTokenCount: total },
        ...head,
      },
    ];
    return reply.stream('text/event-stream', events.map((event) => `data: ${JSON.stringify(event)}\r\n\r\n`).join(''));
  }).then((mock) => Object.assign(mock, { reported }));
}

/** A fixed vector per text: its length and first character code. */
const vectorOf = (text: string) => [text.length, text.charCodeAt(0) || 0, 0.5];

function answerEmbeddings(reply: MockReply, method: string, body: Json) {
  const textOf = (request: unknown) =>
    ((request as { content?: { parts?: { text?: string }[] } }).content?.parts ?? []).map((part) => part.text).join('');
  if (method === 'embedContent') return reply.json(200, { embedding: { values: vectorOf(textOf(body)) } });
  const requests = (body.requests as unknown[] | undefined) ?? [];
  return reply.json(200, { embeddings: requests.map((request) => ({ values: vectorOf(textOf(request)) })) });
}

interface ChatTurn {
  role: string;
  content: string | { type: string; text?: string }[] | null;
}

const turnText = (turn: ChatTurn | undefined) =>
  typeof turn?.content === 'string'
    ? turn.content
    : (turn?.content ?? []).map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join(' ');

/**
 * A loopback OpenAI chat and embeddings API answering from the same script: tool calls when the script
 * calls for one (their arguments streamed in pieces, as OpenAI does), usage on every answer.
 */
export function startScriptedOpenAIUpstream(script: Script): Promise<ScriptedUpstream> {
  const reported: ReportedUsage[] = [];
  return startMockUpstream(async (request, reply) => {
    if (request.headers.authorization !== `Bearer ${openaiUpstreamKey}`)
      return reply.json(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } });
    const body = request.json ?? {};
    const model = String(body.model);
    if (request.path === '/v1/embeddings') {
      const inputs = Array.isArray(body.input) ? (body.input as string[]) : [String(body.input)];
      const prompt = 5 * inputs.length + 3 * reported.length;
      reported.push({ model, prompt, completion: 0 });
      return reply.json(200, {
        object: 'list',
        data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: vectorOf(text) })),
        model,
        usage: { prompt_tokens: prompt, total_tokens: prompt },
      });
    }
    if (request.path !== '/v1/chat/completions')
      return reply.json(404, { error: { message: `no ${request.path}`, type: 'invalid_request_error' } });
    const messages = body.messages as ChatTurn[];
    const last = messages.at(-1);
    const toolResult = last?.role === 'tool' ? turnText(last) : undefined;
    const prompt = turnText(messages.findLast((message) => message.role === 'user'));
    const tools = ((body.tools as { function: { name: string } }[] | undefined) ?? []).map(
      (tool) => tool.function.name,
    );
    const call = toolResult === undefined ? script.toolCall(prompt, tools) : undefined;
    const n = reported.length;
    const usage = { prompt_tokens: 2000 + 41 * n, completion_tokens: 30 + 5 * n, total_tokens: 2030 + 46 * n };
    reported.push({ model, prompt: usage.prompt_tokens, completion: usage.completion_tokens });
    const text = call ? null : script.answer(prompt, toolResult);
    const toolCall = call && {
      id: `call_${n}`,
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.args) },
    };
    const head = { id: `chatcmpl-${n}`, created: 1, model };
    if (!body.stream)
      return reply.json(200, {
        ...head,
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: text, ...(toolCall ? { tool_calls: [toolCall] } : {}) },
            finish_reason: toolCall ? 'tool_calls' : 'stop',
          },
        ],
        usage,
      });
    const argumentsText = toolCall?.function.arguments ?? '';
    const half = Math.ceil(argumentsText.length / 2);
    const deltas: Json[] = toolCall
      ? [
          { role: 'assistant', tool_calls: [{ ...toolCall, index: 0, function: { name: call.name, arguments: '' } }] },
          { tool_calls: [{ index: 0, function: { arguments: argumentsText.slice(0, half) } }] },
          { tool_calls: [{ index: 0, function: { arguments: argumentsText.slice(half) } }] },
        ]
      : [{ role: 'assistant', content: text!.slice(0, 5) }, { content: text!.slice(5) }];
    const chunks = [
      ...deltas.map((delta) => ({ choices: [{ index: 0, delta, finish_reason: null }] })),
      { choices: [{ index: 0, delta: {}, finish_reason: toolCall ? 'tool_calls' : 'stop' }] },
      { choices: [], usage },
    ].map((chunk) => `data: ${JSON.stringify({ ...head, object: 'chat.completion.chunk', ...chunk })}\n\n`);
    return reply.stream('text/event-stream', `${chunks.join('')}data: [DONE]\n\n`);
  }).then((mock) => Object.assign(mock, { reported }));
}
