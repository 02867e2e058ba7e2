import { outputLimitOf } from '../../../domain/pricing/output-limits.js';
import type { RelayCall, UpstreamRequest } from '../../adaptor.js';
import {
  maxOutputTokens,
  messageParts,
  messageText,
  parseArguments,
  parseDataUrl,
  readChatRequest,
  requestTools,
  stopList,
} from '../openai-kit/chat-request.js';
import type { ChatMessage, ChatRequest, ChatToolChoice } from '../openai-kit/chat-types.js';
import { isObject } from '../openai-kit/json.js';
import { reasoningEffortOf, thinkingBudgets, type ReasoningEffort } from '../openai-kit/reasoning-effort.js';
import { requiredKey } from '../openai-kit/upstream-errors.js';
import { geminiCallOriginal, nativeEmbedBody, nativeGenerateBody } from './gemini-original.js';
import { signatureOf } from './thought-signature.js';
import type { GeminiContent, GeminiEmbeddingRequest, GeminiPart, GeminiRequest } from './types.js';

const safetyCategories = [
  'HARM_CATEGORY_HARASSMENT',
  'HARM_CATEGORY_HATE_SPEECH',
  'HARM_CATEGORY_SEXUALLY_EXPLICIT',
  'HARM_CATEGORY_DANGEROUS_CONTENT',
  'HARM_CATEGORY_CIVIC_INTEGRITY',
];

/** Keys of JSON Schema that Gemini's OpenAPI subset rejects in function parameters. */
const rejectedSchemaKeys = new Set([
  '$schema',
  '$id',
  'additionalProperties',
  'default',
  'examples',
  'strict',
  '$comment',
]);

/** A JSON schema cleaned for Gemini: rejected keys removed at every level. */
export function cleanSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(cleanSchema);
  if (!isObject(schema)) return schema;
  const cleaned: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (rejectedSchemaKeys.has(key)) continue;
    cleaned[key] =
      key === 'properties' && isObject(value)
        ? Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, cleanSchema(inner)]))
        : cleanSchema(value);
  }
  return cleaned;
}

/** The mime type a web image probably has, from its file name (Gemini's fileData wants one). */
function guessImageType(url: string): string {
  const extension = /\.(\w+)(?:\?|#|$)/.exec(url)?.[1]?.toLowerCase();
  if (extension === 'png') return 'image/png';
  if (extension === 'webp') return 'image/webp';
  if (extension === 'gif') return 'image/gif';
  return 'image/jpeg';
}

function userParts(message: ChatMessage): GeminiPart[] {
  const parts: GeminiPart[] = [];
  for (const part of messageParts(message.content)) {
    if (part.type === 'text' && typeof part.text === 'string' && part.text !== '') parts.push({ text: part.text });
    if (part.type === 'image_url') {
      const url = (part as { image_url?: { url?: unknown } }).image_url?.url;
      if (typeof url !== 'string') continue;
      const inline = parseDataUrl(url);
      // Web images are passed by URI; the gateway does not fetch client-given addresses itself.
      parts.push(
        inline
          ? { inlineData: { mimeType: inline.mediaType, data: inline.data } }
          : { fileData: { mimeType: guessImageType(url), fileUri: url } },
      );
    }
  }
  return parts;
}

function functionResponse(message: ChatMessage, namesById: Map<string, string>): GeminiPart {
  const text = messageText(message.content);
  let response: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(text);
    response = isObject(parsed) ? parsed : { content: parsed };
  } catch {
    response = { content: text };
  }
  const name = namesById.get(message.tool_call_id ?? '') ?? message.name ?? '';
  return { functionResponse: { name, response } };
}

/**
 * OpenAI messages as Gemini contents plus the system instruction. Tool answers become functionResponse
 * parts named after the call they answer (looked up by tool_call_id), and turns of one role are merged.
 */
export function toGeminiContents(messages: ChatMessage[]): Pick<GeminiRequest, 'contents' | 'systemInstruction'> {
  const system: GeminiPart[] = [];
  const contents: GeminiContent[] = [];
  const namesById = new Map<string, string>();
  for (const message of messages) {
    let role: GeminiContent['role'] = 'user';
    let parts: GeminiPart[];
    if (message.role === 'system' || message.role === 'developer') {
      const text = messageText(message.content);
      if (text !== '') system.push({ text });
      continue;
    } else if (message.role === 'assistant') {
      role = 'model';
      parts = [];
      const text = messageText(message.content);
      if (text !== '') parts.push({ text });
      for (const call of message.tool_calls ?? []) {
        namesById.set(call.id, call.function?.name ?? '');
        const part: GeminiPart = {
          functionCall: { name: call.function?.name ?? '', args: parseArguments(call.function?.arguments) },
        };
        const signature = signatureOf(call.id);
        if (signature) part.thoughtSignature = signature;
        parts.push(part);
      }
    } else if (message.role === 'tool' || message.role === 'function') {
      parts = [functionResponse(message, namesById)];
    } else {
      parts = userParts(message);
    }
    if (parts.length === 0) continue;
    const last = contents.at(-1);
    if (last && last.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  }
  return { contents, ...(system.length > 0 ? { systemInstruction: { parts: system } } : {}) };
}

function toolConfig(choice: ChatToolChoice | undefined): GeminiRequest['toolConfig'] {
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice === 'required' || choice === 'any') return { functionCallingConfig: { mode: 'ANY' } };
  if (typeof choice === 'object' && choice?.function?.name)
    return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.function.name] } };
  return undefined;
}

/** The OpenAI chat request as a generateContent body. */
export function toGeminiRequest(request: ChatRequest, options: { safetyThreshold?: string } = {}): GeminiRequest {
  const body: GeminiRequest = {
    ...toGeminiContents(request.messages),
    safetySettings: safetyCategories.map((category) => ({
      category,
      threshold: options.safetyThreshold ?? 'BLOCK_NONE',
    })),
  };
  const tools = requestTools(request);
  if (tools.length > 0) {
    body.tools = [
      {
        functionDeclarations: tools.map((tool) => {
          const parameters = cleanSchema(tool.function.parameters) as Record<string, unknown> | undefined;
          const hasProperties = isObject(parameters?.properties) && Object.keys(parameters.properties).length > 0;
          // Gemini rejects an OBJECT schema without properties: a function without arguments has none.
          return {
            name: tool.function.name,
            description: tool.function.description,
            ...(hasProperties ? { parameters } : {}),
          };
        }),
      },
    ];
    const config = toolConfig(request.tool_choice);
    if (config) body.toolConfig = config;
  }
  const generation: NonNullable<GeminiRequest['generationConfig']> = {};
  if (typeof request.temperature === 'number') generation.temperature = request.temperature;
  if (typeof request.top_p === 'number') generation.topP = request.top_p;
  if (typeof request.top_k === 'number') generation.topK = request.top_k;
  // Gemini refuses a cap above the model's own limit (Claude Code asks for 128,000; 2.5 and 3 stop at 65,536).
  const maxTokens = maxOutputTokens(request);
  if (maxTokens) generation.maxOutputTokens = Math.min(maxTokens, outputLimitOf(request.model ?? '') ?? Infinity);
  if (typeof request.n === 'number' && request.n > 1) generation.candidateCount = request.n;
  const stop = stopList(request.stop);
  if (stop) generation.stopSequences = stop;
  if (typeof request.seed === 'number') generation.seed = request.seed;
  if (typeof request.presence_penalty === 'number') generation.presencePenalty = request.presence_penalty;
  if (typeof request.frequency_penalty === 'number') generation.frequencyPenalty = request.frequency_penalty;
  const format = request.response_format;
  if (format?.type === 'json_object') generation.responseMimeType = 'application/json';
  if (format?.type === 'json_schema') {
    generation.responseMimeType = 'application/json';
    if (format.json_schema?.schema)
      generation.responseSchema = cleanSchema(format.json_schema.schema) as Record<string, unknown>;
  }
  const thinking = thinkingConfig(reasoningEffortOf(request), request.model);
  if (thinking) generation.thinkingConfig = thinking;
  if (Object.keys(generation).length > 0) body.generationConfig = generation;
  return body;
}

/**
 * `reasoning_effort` as Gemini's thinking: Gemini 3 models take a level (`minimal` and `medium` on Flash only,
 * Pro has `low` and `high`), Gemini 2.5 a budget (`thinkingBudgets`; `none` is 0, but 2.5 Pro always thinks:
 * its least is 128). Thought summaries come back as `reasoning_content`.
 * https://ai.google.dev/gemini-api/docs/thinking#set-budget
 */
function thinkingConfig(
  effort: ReasoningEffort | undefined,
  model: string,
): NonNullable<GeminiRequest['generationConfig']>['thinkingConfig'] {
  if (!effort) return undefined;
  const pro = /-pro/.test(model);
  if (/gemini-3/.test(model)) {
    const proLevel = effort === 'medium' || effort === 'high' ? 'high' : 'low';
    const flashLevel = effort === 'none' ? 'minimal' : effort;
    return { thinkingLevel: pro ? proLevel : flashLevel, includeThoughts: effort !== 'none' };
  }
  if (effort === 'none') return { thinkingBudget: pro ? 128 : 0 };
  return { thinkingBudget: thinkingBudgets[effort], includeThoughts: true };
}

/** The OpenAI embeddings input as a batchEmbedContents body. */
export function toGeminiEmbeddingRequest(value: Record<string, unknown>, model: string): GeminiEmbeddingRequest {
  const input = value.input;
  const texts = Array.isArray(input)
    ? input.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)))
    : [typeof input === 'string' ? input : ''];
  const dimensions = typeof value.dimensions === 'number' ? value.dimensions : undefined;
  return {
    requests: texts.map((text) => ({
      model: `models/${model}`,
      content: { parts: [{ text }] },
      ...(dimensions ? { outputDimensionality: dimensions } : {}),
    })),
  };
}

/**
 * The API version: the channel's `api_version`, else v1beta, which every current model serves and which has
 * systemInstruction and tools (one-api sent v1 to older models, where those fields fail).
 */
export const geminiVersion = (call: RelayCall) => call.channel.config.api_version || 'v1beta';

/** The Gemini request: generateContent, streamGenerateContent with SSE, or batchEmbedContents. */
export function buildGeminiRequest(call: RelayCall): UpstreamRequest {
  const key = requiredKey(call.channel.key, 'Gemini', 'an API key');
  const prefix = `${call.channel.baseUrl}/${geminiVersion(call)}/models/${encodeURIComponent(call.model)}`;
  const headers = { 'content-type': 'application/json', 'x-goog-api-key': key };
  const value = call.body.kind === 'json' ? call.body.value : {};
  // A call from the Gemini front sends the client's own body (its method too, for embeddings).
  const original = geminiCallOriginal(call);
  if (call.mode === 'embeddings') {
    const method = original?.method === 'embedContent' ? 'embedContent' : 'batchEmbedContents';
    const body = original ? nativeEmbedBody(call, original) : toGeminiEmbeddingRequest(value, call.model);
    return { url: `${prefix}:${method}`, method: 'POST', headers, body: JSON.stringify(body) };
  }
  const url = call.stream ? `${prefix}:streamGenerateContent?alt=sse` : `${prefix}:generateContent`;
  const body = original ? nativeGenerateBody(call, original) : toGeminiRequest(readChatRequest(call));
  return { url, method: 'POST', headers, body: JSON.stringify(body) };
}
