import type { RelayCall, UpstreamRequest } from '../../adaptor.js';
import {
  maxOutputTokens,
  messageText,
  parseArguments,
  readChatRequest,
  requestTools,
  stopList,
} from '../openai-kit/chat-request.js';
import type { ChatMessage, ChatRequest, ChatTool } from '../openai-kit/chat-types.js';
import { isObject } from '../openai-kit/json.js';
import { requiredKey } from '../openai-kit/upstream-errors.js';
import type { CohereChatRequest, CohereChatTurn, CohereTool, CohereToolCall, CohereToolResult } from './types.js';

const internetSuffix = '-internet';
const jsonTypes: Record<string, string> = {
  string: 'str',
  integer: 'int',
  number: 'float',
  boolean: 'bool',
  array: 'list',
  object: 'dict',
};

/** An OpenAI function as a Cohere v1 tool (flat parameter definitions from the schema's properties). */
function toCohereTool(tool: ChatTool): CohereTool {
  const schema = tool.function.parameters ?? {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const properties = isObject(schema.properties) ? schema.properties : {};
  const definitions: NonNullable<CohereTool['parameter_definitions']> = {};
  for (const [name, property] of Object.entries(properties)) {
    const spec = isObject(property) ? property : {};
    definitions[name] = {
      type: jsonTypes[String(spec.type)] ?? 'str',
      ...(typeof spec.description === 'string' ? { description: spec.description } : {}),
      required: required.has(name),
    };
  }
  return {
    name: tool.function.name,
    description: tool.function.description ?? '',
    ...(Object.keys(definitions).length > 0 ? { parameter_definitions: definitions } : {}),
  };
}

function toolOutputs(message: ChatMessage): Record<string, unknown>[] {
  const text = messageText(message.content);
  try {
    const parsed: unknown = JSON.parse(text);
    return [isObject(parsed) ? parsed : { result: parsed }];
  } catch {
    return [{ result: text }];
  }
}

/**
 * OpenAI messages in Cohere's v1 layout: system text → `preamble`; the last user message → `message`; earlier
 * turns → `chat_history` (one-api put every user message in `message`, losing all but the last). When the
 * conversation ends with tool answers, they go to `tool_results` and `message` stays empty.
 */
export function toCohereConversation(
  messages: ChatMessage[],
): Pick<CohereChatRequest, 'message' | 'preamble' | 'chat_history' | 'tool_results'> {
  const preamble: string[] = [];
  const history: CohereChatTurn[] = [];
  const callsById = new Map<string, CohereToolCall>();
  let trailingResults: CohereToolResult[] = [];
  for (const message of messages) {
    if (message.role === 'system' || message.role === 'developer') {
      preamble.push(messageText(message.content));
      continue;
    }
    if (message.role === 'tool' || message.role === 'function') {
      const call = callsById.get(message.tool_call_id ?? '') ?? { name: message.name ?? '', parameters: {} };
      trailingResults.push({ call, outputs: toolOutputs(message) });
      continue;
    }
    if (trailingResults.length > 0) {
      history.push({ role: 'TOOL', tool_results: trailingResults });
      trailingResults = [];
    }
    if (message.role === 'assistant') {
      const toolCalls = (message.tool_calls ?? []).map((call) => {
        const converted = { name: call.function?.name ?? '', parameters: parseArguments(call.function?.arguments) };
        callsById.set(call.id, converted);
        return converted;
      });
      history.push({
        role: 'CHATBOT',
        message: messageText(message.content),
        ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
      });
    } else {
      history.push({ role: 'USER', message: messageText(message.content) });
    }
  }
  let message = '';
  if (trailingResults.length === 0) {
    const lastUser = history.findLastIndex((turn) => turn.role === 'USER');
    if (lastUser === history.length - 1) message = history.pop()?.message ?? '';
  }
  return {
    message,
    ...(preamble.length > 0 ? { preamble: preamble.join('\n') } : {}),
    ...(history.length > 0 ? { chat_history: history } : {}),
    ...(trailingResults.length > 0 ? { tool_results: trailingResults } : {}),
  };
}

/** The OpenAI chat request as a Cohere v1 chat body; `-internet` models turn on the web-search connector. */
export function toCohereRequest(request: ChatRequest): CohereChatRequest {
  let model = request.model || 'command-r';
  const internet = model.endsWith(internetSuffix);
  if (internet) model = model.slice(0, -internetSuffix.length);
  const body: CohereChatRequest = { model, ...toCohereConversation(request.messages) };
  if (request.stream) body.stream = true;
  if (typeof request.temperature === 'number') body.temperature = request.temperature;
  const maxTokens = maxOutputTokens(request);
  if (maxTokens) body.max_tokens = maxTokens;
  if (typeof request.top_p === 'number') body.p = request.top_p;
  if (typeof request.top_k === 'number') body.k = request.top_k;
  if (typeof request.seed === 'number') body.seed = request.seed;
  const stop = stopList(request.stop);
  if (stop) body.stop_sequences = stop;
  if (typeof request.frequency_penalty === 'number') body.frequency_penalty = request.frequency_penalty;
  if (typeof request.presence_penalty === 'number') body.presence_penalty = request.presence_penalty;
  if (internet) body.connectors = [{ id: 'web-search' }];
  const tools = requestTools(request);
  if (tools.length > 0 && request.tool_choice !== 'none') body.tools = tools.map(toCohereTool);
  return body;
}

/** `POST {base}/v1/chat` with the Bearer key. */
export function buildCohereRequest(call: RelayCall): UpstreamRequest {
  const key = requiredKey(call.channel.key, 'Cohere', 'an API key');
  return {
    url: `${call.channel.baseUrl}/v1/chat`,
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(toCohereRequest(readChatRequest(call))),
  };
}
