import type {
  ChatContentPart,
  ChatFunction,
  ChatMessage,
  ChatRequest,
  ChatTool,
  ChatToolCall,
  ChatToolChoice,
} from '../../adaptors/openai-kit/chat-types.js';
import { isObject } from '../../adaptors/openai-kit/json.js';
import { ResponsesRequestError } from './errors.js';
import type { ResponsesContentPart, ResponsesInputItem, ResponsesRequest, ResponsesTool } from './types.js';

/** The chat request the relay runs, and what of the Responses request chat channels cannot take. */
export interface ConvertedResponsesRequest {
  chat: ChatRequest;
  /** `tools.8 (web_search)`, `input.3 (computer_call)` …: for the response header that says what was dropped. */
  dropped: string[];
}

/** `input` as items: a bare string is one user message, as OpenAI reads it. */
export function inputItemsOf(input: ResponsesRequest['input']): ResponsesInputItem[] {
  if (input === undefined) return [];
  if (typeof input === 'string')
    return [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: input }] }];
  return input;
}

const text = (value: unknown, param: string): string => {
  if (typeof value !== 'string') throw new ResponsesRequestError(param, 'expected a string');
  return value;
};

/** One content part of a user-side message as a chat part. */
function chatPart(part: ResponsesContentPart, param: string): ChatContentPart {
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      return { type: 'text', text: text(part.text, `${param}.text`) };
    case 'input_image': {
      if (typeof part.image_url !== 'string')
        throw new ResponsesRequestError(
          `${param}.image_url`,
          'an image URL or data URL is required (file_id is not supported)',
        );
      const detail = typeof part.detail === 'string' && part.detail !== 'auto' ? { detail: part.detail } : {};
      return { type: 'image_url', image_url: { url: part.image_url, ...detail } };
    }
    case 'input_file': {
      if (typeof part.file_data !== 'string')
        throw new ResponsesRequestError(
          `${param}.file_data`,
          'inline file_data is required (file_id and file_url are not supported)',
        );
      const name = typeof part.filename === 'string' ? part.filename : 'file';
      return { type: 'file', file: { filename: name, file_data: part.file_data } };
    }
    default:
      throw new ResponsesRequestError(`${param}.type`, `unsupported content type '${String(part.type)}'`);
  }
}

/** A message's content as chat content: text alone joins into a string, anything else stays parts. */
function chatContent(content: unknown, param: string): string | ChatContentPart[] {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw new ResponsesRequestError(param, 'expected a string or an array of content parts');
  const parts = content.map((part, index) => {
    if (!isObject(part)) throw new ResponsesRequestError(`${param}.${index}`, 'expected a content part object');
    return chatPart(part as ResponsesContentPart, `${param}.${index}`);
  });
  return parts.every((part) => part.type === 'text')
    ? parts.map((part) => (part as { text: string }).text).join('\n')
    : parts;
}

/** An assistant message's text (its `output_text` and `refusal` parts). */
function assistantText(content: unknown, param: string): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw new ResponsesRequestError(param, 'expected a string or an array of content parts');
  return content
    .map((part, index) => {
      if (!isObject(part)) throw new ResponsesRequestError(`${param}.${index}`, 'expected a content part object');
      if (part.type === 'refusal') return text(part.refusal, `${param}.${index}.refusal`);
      if (part.type === 'output_text' || part.type === 'input_text') return text(part.text, `${param}.${index}.text`);
      throw new ResponsesRequestError(`${param}.${index}.type`, `unsupported content type '${String(part.type)}'`);
    })
    .join('');
}

/** A function call's output: a string, or parts whose text is kept (chat tool messages carry text only). */
function toolOutput(output: unknown, param: string, dropped: string[]): string {
  if (typeof output === 'string') return output;
  if (!Array.isArray(output)) throw new ResponsesRequestError(param, 'expected a string or an array of content parts');
  return output
    .map((part, index) => {
      if (isObject(part) && part.type === 'input_text') return text(part.text, `${param}.${index}.text`);
      dropped.push(`${param}.${index} (${isObject(part) ? String(part.type) : typeof part})`);
      return '';
    })
    .join('');
}

/** The assistant message new tool calls join: the last message when it is the assistant's, else a new one. */
function assistantForCalls(messages: ChatMessage[]): ChatMessage {
  const last = messages.at(-1);
  if (last?.role === 'assistant') return last;
  const message: ChatMessage = { role: 'assistant', content: null };
  messages.push(message);
  return message;
}

const messageRoles: Record<string, ChatMessage['role']> = {
  user: 'user',
  assistant: 'assistant',
  // Chat vendors other than OpenAI rarely know `developer`; `system` means the same to all of them.
  system: 'system',
  developer: 'system',
};

/** Input items that only OpenAI's own models produce and read back: dropped without a word for chat channels. */
const silentlyDropped = new Set(['reasoning', 'compaction']);

function chatMessages(items: ResponsesInputItem[], dropped: string[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  items.forEach((item, index) => {
    const param = `input.${index}`;
    if (!isObject(item)) throw new ResponsesRequestError(param, 'expected an input item object');
    const type = item.type ?? 'message';
    if (type === 'message') {
      const role = messageRoles[String(item.role)];
      if (!role)
        throw new ResponsesRequestError(
          `${param}.role`,
          `expected user, assistant, system or developer, got '${String(item.role)}'`,
        );
      if (role === 'assistant') {
        const content = assistantText(item.content, `${param}.content`);
        const last = messages.at(-1);
        // Consecutive assistant items (text, then its calls) are one chat turn.
        if (last?.role === 'assistant' && !last.tool_calls) last.content = `${last.content ?? ''}${content}`;
        else messages.push({ role, content });
      } else messages.push({ role, content: chatContent(item.content, `${param}.content`) });
    } else if (type === 'function_call') {
      const call: ChatToolCall = {
        id: text(item.call_id, `${param}.call_id`),
        type: 'function',
        function: { name: text(item.name, `${param}.name`), arguments: text(item.arguments, `${param}.arguments`) },
      };
      const assistant = assistantForCalls(messages);
      assistant.tool_calls = [...(assistant.tool_calls ?? []), call];
      if (assistant.content === '') assistant.content = null;
    } else if (type === 'function_call_output') {
      messages.push({
        role: 'tool',
        tool_call_id: text(item.call_id, `${param}.call_id`),
        content: toolOutput(item.output, `${param}.output`, dropped),
      });
    } else if (!silentlyDropped.has(String(type))) dropped.push(`${param} (${String(type)})`);
  });
  return messages;
}

function chatTools(tools: ResponsesTool[], dropped: string[]): ChatTool[] {
  const converted: ChatTool[] = [];
  tools.forEach((tool, index) => {
    if (tool.type !== 'function') {
      dropped.push(`tools.${index} (${tool.type}${tool.type === 'namespace' && tool.name ? ` ${tool.name}` : ''})`);
      return;
    }
    const definition: ChatFunction & { strict?: boolean } = { name: text(tool.name, `tools.${index}.name`) };
    if (typeof tool.description === 'string') definition.description = tool.description;
    if (isObject(tool.parameters)) definition.parameters = tool.parameters;
    if (typeof tool.strict === 'boolean') definition.strict = tool.strict;
    converted.push({ type: 'function', function: definition });
  });
  return converted;
}

function chatToolChoice(choice: ResponsesRequest['tool_choice'], dropped: string[]): ChatToolChoice | undefined {
  if (choice === undefined) return undefined;
  if (choice === 'auto' || choice === 'none' || choice === 'required') return choice;
  if (isObject(choice)) {
    if (choice.type === 'function' && typeof choice.name === 'string')
      return { type: 'function', function: { name: choice.name } };
    // `allowed_tools` narrows the list; chat keeps its mode over every tool.
    if (choice.type === 'allowed_tools' && (choice.mode === 'auto' || choice.mode === 'required')) return choice.mode;
  }
  dropped.push(`tool_choice (${isObject(choice) ? String(choice.type) : String(choice)})`);
  return undefined;
}

function responseFormat(format: NonNullable<ResponsesRequest['text']>['format']): ChatRequest['response_format'] {
  if (!format || format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  if (format.type === 'json_schema') {
    const { type: _type, ...schema } = format;
    return { type: 'json_schema', json_schema: schema };
  }
  throw new ResponsesRequestError(
    'text.format.type',
    `expected text, json_object or json_schema, got '${format.type}'`,
  );
}

/**
 * A Responses request as the OpenAI chat request every channel type can run. `items` is the whole
 * conversation: the stored items of `previous_response_id` (when there is one) followed by this request's
 * `input`. `instructions` lead as a system message. Built-in tools (web_search, file_search …), `namespace`
 * tools and items chat has no words for are dropped and listed in `dropped`; reasoning items, which only
 * OpenAI's own models read back, are dropped silently. `metadata` stays with the response object: OpenAI's chat
 * API refuses it unless the completion is stored there. Streams ask for the usage chunk so the final event can
 * report token counts.
 */
export function responsesToChatRequest(
  request: ResponsesRequest,
  items: ResponsesInputItem[] = inputItemsOf(request.input),
): ConvertedResponsesRequest {
  const dropped: string[] = [];
  const messages = chatMessages(items, dropped);
  if (typeof request.instructions === 'string' && request.instructions !== '')
    messages.unshift({ role: 'system', content: request.instructions });
  const chat: ChatRequest & { reasoning_effort?: string } = {
    model: request.model,
    messages,
  };
  const tools = chatTools(request.tools ?? [], dropped);
  if (tools.length > 0) {
    chat.tools = tools;
    const choice = chatToolChoice(request.tool_choice, dropped);
    if (choice) chat.tool_choice = choice;
    if (typeof request.parallel_tool_calls === 'boolean') chat.parallel_tool_calls = request.parallel_tool_calls;
  }
  const format = responseFormat(request.text?.format);
  if (format) chat.response_format = format;
  const effort = request.reasoning?.effort;
  if (typeof effort === 'string') chat.reasoning_effort = effort;
  if (typeof request.max_output_tokens === 'number') {
    // OpenAI's reasoning models refuse `max_tokens`; every other chat vendor reads it.
    if (typeof effort === 'string') chat.max_completion_tokens = request.max_output_tokens;
    else chat.max_tokens = request.max_output_tokens;
  }
  if (typeof request.temperature === 'number') chat.temperature = request.temperature;
  if (typeof request.top_p === 'number') chat.top_p = request.top_p;
  if (typeof request.user === 'string') chat.user = request.user;
  if (request.stream) {
    chat.stream = true;
    chat.stream_options = { include_usage: true };
  }
  return { chat, dropped };
}
