import type { RelayCall } from '../../adaptor.js';

/**
 * The parts of OpenAI's chat request that converting adaptors read (providers.md §2.2). The front has
 * already checked `model` and `messages`; everything else is read defensively.
 */
export interface OpenAIToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface OpenAIMessage {
  role: string;
  content?: unknown;
  name?: string;
  tool_calls?: OpenAIToolCall[];
  tool_call_id?: string;
}

export interface OpenAIFunction {
  name: string;
  description?: string;
  parameters?: unknown;
}

export interface OpenAITool {
  type: 'function';
  function: OpenAIFunction;
}

export interface OpenAIChatRequest {
  model: string;
  messages: OpenAIMessage[];
  stream?: boolean;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  n?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  frequency_penalty?: number;
  presence_penalty?: number;
  seed?: number;
  stop?: string | string[];
  user?: string;
  tools?: OpenAITool[];
  tool_choice?: unknown;
  functions?: OpenAIFunction[];
}

type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const numberOrUndefined = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** The JSON body of a call as an object ({} for binary bodies). */
export function bodyOf(call: RelayCall): Json {
  return call.body.kind === 'json' ? call.body.value : {};
}

/** The chat request of a call, with the upstream (mapped) model and the numbers checked for type. */
export function chatRequestOf(call: RelayCall): OpenAIChatRequest {
  const body = bodyOf(call);
  const messages = Array.isArray(body.messages) ? body.messages.filter(isObject) : [];
  return {
    ...(body as Partial<OpenAIChatRequest>),
    model: call.model,
    messages: messages.map((message) => ({ ...message, role: String(message.role ?? 'user') })),
    stream: call.stream,
    temperature: numberOrUndefined(body.temperature),
    top_p: numberOrUndefined(body.top_p),
    top_k: numberOrUndefined(body.top_k),
    n: numberOrUndefined(body.n),
    max_tokens: numberOrUndefined(body.max_tokens) ?? numberOrUndefined(body.max_completion_tokens),
    frequency_penalty: numberOrUndefined(body.frequency_penalty),
    presence_penalty: numberOrUndefined(body.presence_penalty),
    seed: numberOrUndefined(body.seed),
    user: typeof body.user === 'string' ? body.user : undefined,
    tools: Array.isArray(body.tools) ? (body.tools.filter(isObject) as unknown as OpenAITool[]) : undefined,
    functions: Array.isArray(body.functions)
      ? (body.functions.filter(isObject) as unknown as OpenAIFunction[])
      : undefined,
  };
}

/** The text of a message content: a string, or the text parts of an array joined (images dropped). */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (isObject(part) && part.type === 'text' && typeof part.text === 'string' ? part.text : ''))
    .join('');
}

/** The functions a request offers, from `tools` or the legacy `functions`. */
export function offeredFunctions(request: OpenAIChatRequest): OpenAIFunction[] {
  const fromTools = (request.tools ?? [])
    .map((tool) => tool.function)
    .filter((fn) => isObject(fn) && typeof fn.name === 'string');
  return fromTools.length > 0 ? fromTools : (request.functions ?? []);
}

/** The inputs of an embeddings call as a list of strings (`input` may be one string or a list). */
export function embeddingInputs(call: RelayCall): string[] {
  const input = bodyOf(call).input;
  if (typeof input === 'string') return [input];
  if (Array.isArray(input)) return input.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
  return [];
}
