import {
  withClaudeOriginal,
  type ClaudeMessageOriginal,
  type ClaudeRequestOriginal,
} from '../../adaptors/anthropic/claude-original.js';
import type {
  ClaudeContentBlock,
  ClaudeImageSource,
  ClaudeMessage,
  ClaudeRequest,
  ClaudeServerTool,
  ClaudeTextBlock,
  ClaudeTool,
} from '../../adaptors/anthropic/types.js';
import type {
  ChatContentPart,
  ChatMessage,
  ChatRequest,
  ChatTool,
  ChatToolCall,
  ChatToolChoice,
} from '../../adaptors/openai-kit/chat-types.js';
import { effortForBudget } from '../../adaptors/openai-kit/reasoning-effort.js';
import type { AnthropicClientHeaders } from './client-headers.js';
import { documentText, inlinePdf } from './documents.js';

/**
 * A Messages API request as clients send it to the gateway: the wire type, and any other field (passed to
 * Anthropic channels, dropped for the others, see `droppedForOtherChannels`).
 */
export type AnthropicFrontRequest = Omit<ClaudeRequest, 'tools'> & {
  model: string;
  tools?: ((ClaudeTool & { type?: string }) | ClaudeServerTool)[];
  [field: string]: unknown;
};

/** The top-level fields the conversion to OpenAI's request carries (`thinking` rides on the Claude original). */
const convertedFields: ReadonlySet<string> = new Set([
  'model',
  'messages',
  'system',
  'max_tokens',
  'stream',
  'temperature',
  'top_p',
  'top_k',
  'stop_sequences',
  'tools',
  'tool_choice',
  'metadata',
  'thinking',
]);

/** The content blocks OpenAI's messages have some form for (thinking as reasoning, which is not sent back). */
const convertedBlocks: ReadonlySet<string> = new Set([
  'text',
  'image',
  'document',
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
]);

/** A client tool's fields the conversion to an OpenAI function carries. */
const convertedToolFields: ReadonlySet<string> = new Set([
  'name',
  'description',
  'input_schema',
  'cache_control',
  'type',
]);

/** The fields of an object that a conversion leaves out. */
const otherFields = (value: object, kept: ReadonlySet<string>): string[] =>
  Object.keys(value).filter((key) => !kept.has(key));

/** The fields of an object that the conversion leaves out, with their values. */
const otherFieldValues = (value: object, kept: ReadonlySet<string>): Record<string, unknown> | undefined => {
  const keys = otherFields(value, kept);
  return keys.length > 0
    ? Object.fromEntries(keys.map((key) => [key, (value as Record<string, unknown>)[key]]))
    : undefined;
};

const turnFields: ReadonlySet<string> = new Set(['role', 'content']);

/**
 * What a channel other than Claude's never receives of a request, by path: top-level fields
 * (`output_config`, `context_management`, `thinking`), a turn's own fields (`messages.1.output_config`),
 * content blocks OpenAI has no form for (`messages.3.content.0(server_tool_use)`), server tools
 * (`tools.2(web_search_20250305)`) and client tools' settings (`tools.10.defer_loading`).
 */
export function droppedForOtherChannels(request: AnthropicFrontRequest): string[] {
  const dropped = otherFields(request, convertedFields);
  if (request.thinking && request.thinking.type !== 'disabled' && !thinkingEffort(request)) dropped.push('thinking');
  const unknownBlocks = (blocks: ClaudeMessage['content'] | undefined, path: string) => {
    if (!Array.isArray(blocks)) return;
    for (const [index, block] of (blocks as { type: string }[]).entries())
      if (!convertedBlocks.has(block.type)) dropped.push(`${path}.${index}(${block.type})`);
  };
  unknownBlocks(request.system as ClaudeContentBlock[] | undefined, 'system');
  for (const [index, message] of request.messages.entries()) {
    dropped.push(...otherFields(message, turnFields).map((field) => `messages.${index}.${field}`));
    unknownBlocks(message.content, `messages.${index}.content`);
  }
  for (const [index, tool] of (request.tools ?? []).entries()) {
    if (!isClientTool(tool)) dropped.push(`tools.${index}(${tool.type})`);
    else dropped.push(...otherFields(tool, convertedToolFields).map((field) => `tools.${index}.${field}`));
  }
  return dropped;
}

/**
 * The thinking budget as OpenAI's reasoning effort (`effortForBudget`: Claude Code's 31,999 is high), for the
 * channels other than Claude's; adaptive thinking names no budget and has none.
 */
const thinkingEffort = (request: AnthropicFrontRequest) =>
  request.thinking?.type === 'enabled' ? effortForBudget(request.thinking.budget_tokens) : undefined;

/** A tool the client runs, with its input schema; the others are Anthropic's server tools. */
const isClientTool = (tool: ClaudeTool | ClaudeServerTool): tool is ClaudeTool => tool.input_schema !== undefined;

/** Whether a request offers a server tool (web search …), which only Claude channels run. */
export const hasServerTools = (request: AnthropicFrontRequest): boolean =>
  request.tools !== undefined && !request.tools.every(isClientTool);

/**
 * The most web searches a request allows: the sum of its web search tools' `max_uses`, reserved with the
 * estimate as `max_tokens` is. 0 when no search tool sets one (Anthropic then sets no limit of its own).
 */
export const maxWebSearches = (request: AnthropicFrontRequest): number =>
  (request.tools ?? []).reduce((sum, tool) => {
    if (isClientTool(tool) || !tool.type.startsWith('web_search_')) return sum;
    const uses = tool.max_uses;
    return typeof uses === 'number' && uses > 0 ? sum + Math.floor(uses) : sum;
  }, 0);

const imageUrl = (source: ClaudeImageSource) =>
  source.type === 'base64' ? `data:${source.media_type};base64,${source.data}` : source.url;

const blocksOf = (content: ClaudeMessage['content']): ClaudeContentBlock[] =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : (content ?? []);

const textOf = (content: string | ClaudeTextBlock[] | undefined | (ClaudeTextBlock | { type: string })[]): string =>
  typeof content === 'string'
    ? content
    : (content ?? []).map((block) => ('text' in block && typeof block.text === 'string' ? block.text : '')).join('');

/** A message the front made, marked with the Claude blocks it stands for (for Claude upstreams). */
const fromBlocks = (
  message: ChatMessage,
  blocks: ClaudeContentBlock[],
  turn: Omit<ClaudeMessageOriginal, 'content' | 'blocks'> = {},
): ChatMessage =>
  withClaudeOriginal<ChatMessage, ClaudeMessageOriginal>(message, { content: message.content, blocks, ...turn });

/** A file name for an inline PDF (OpenAI wants one with `file_data`): its title, else a generic one. */
function pdfName(title: string | undefined): string {
  const name = (title ?? '')
    .replace(/[^\p{L}\p{N}._-]+/gu, ' ')
    .trim()
    .replace(/\.pdf$/i, '')
    .slice(0, 100);
  return `${name || 'document'}.pdf`;
}

/**
 * One user turn: tool results first (each its own `tool` message, as OpenAI wants them right after the calls),
 * then the rest. A document becomes text when it has some (`documentText`), an inline PDF becomes OpenAI's
 * `file` part; otherwise only its Claude original carries it, in a message of its own if nothing else is left
 * (the front then routes to the channels that read it, `documentReaders`).
 */
function userMessages(blocks: ClaudeContentBlock[], fields?: Record<string, unknown>): ChatMessage[] {
  const messages: ChatMessage[] = [];
  const parts: ChatContentPart[] = [];
  const others: ClaudeContentBlock[] = [];
  for (const block of blocks) {
    if (block.type === 'tool_result') {
      const text = typeof block.content === 'string' ? block.content : textOf(block.content);
      const content = block.is_error ? `Error: ${text}` : text;
      messages.push(fromBlocks({ role: 'tool', tool_call_id: block.tool_use_id, content }, [block]));
      continue;
    }
    others.push(block);
    if (block.type === 'text') parts.push({ type: 'text', text: block.text });
    else if (block.type === 'image') parts.push({ type: 'image_url', image_url: { url: imageUrl(block.source) } });
    else if (block.type === 'document') {
      const text = documentText(block);
      const pdf = text === undefined ? inlinePdf(block) : undefined;
      if (text !== undefined) parts.push({ type: 'text', text });
      else if (pdf !== undefined)
        parts.push({
          type: 'file',
          file: { filename: pdfName(block.title), file_data: `data:application/pdf;base64,${pdf}` },
        });
    }
  }
  // Blocks only Claude reads (documents, unknown types) keep a turn of their own for Claude channels.
  if (parts.length === 0 && others.length === 0) return messages;
  const onlyText = parts.every((part) => part.type === 'text');
  const content = onlyText ? parts.map((part) => (part as { text: string }).text).join('\n') : parts;
  messages.push(fromBlocks({ role: 'user', content }, others, { fields }));
  return messages;
}

/** An assistant turn; its thinking blocks (with their signatures) ride along for Claude upstreams only. */
function assistantMessage(blocks: ClaudeContentBlock[], fields?: Record<string, unknown>): ChatMessage {
  let text = '';
  const toolCalls: ChatToolCall[] = [];
  for (const block of blocks) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'tool_use')
      toolCalls.push({
        id: block.id,
        type: 'function',
        function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
      });
  }
  const message: ChatMessage = {
    role: 'assistant',
    content: text === '' && toolCalls.length > 0 ? null : text,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
  return fromBlocks(message, blocks, { fields });
}

function toolChoice(choice: ClaudeRequest['tool_choice']): ChatToolChoice | undefined {
  if (!choice) return undefined;
  if (choice.type === 'any') return 'required';
  if (choice.type === 'none') return 'none';
  if (choice.type === 'tool') return { type: 'function', function: { name: choice.name } };
  return 'auto';
}

/**
 * An Anthropic Messages request as the OpenAI chat request the relay runs. Streams ask for the usage chunk
 * so that the Anthropic events can report token counts. Server tools (web search …) have no schema and no
 * OpenAI equivalent: only the Claude original keeps them, so Claude channels run them and others never see them.
 *
 * What OpenAI's shapes cannot say (cache_control, thinking blocks and signatures, documents, the `thinking`
 * parameter, the client's `anthropic-beta` and `anthropic-version` headers) is attached to the request, its
 * messages and tools as their Claude originals (`claude-original.ts`): Claude upstreams send those instead,
 * OpenAI-protocol upstreams never see them.
 */
export function anthropicToChatRequest(
  request: AnthropicFrontRequest,
  headers: AnthropicClientHeaders = {},
): ChatRequest {
  const messages: ChatMessage[] = [];
  const system = typeof request.system === 'string' ? request.system : textOf(request.system);
  if (system) {
    const message: ChatMessage = { role: 'system', content: system };
    messages.push(Array.isArray(request.system) ? fromBlocks(message, request.system) : message);
  }
  for (const message of request.messages ?? []) {
    const blocks = blocksOf(message.content);
    const fields = otherFieldValues(message, turnFields);
    if (message.role === 'assistant') messages.push(assistantMessage(blocks, fields));
    else if (message.role === 'system')
      // OpenAI's system messages may stand anywhere too: the turn stays in its place on every channel.
      messages.push(fromBlocks({ role: 'system', content: textOf(blocks) }, blocks, { inPlace: true, fields }));
    else messages.push(...userMessages(blocks, fields));
  }
  const original: ClaudeRequestOriginal = { ...headers };
  if (request.thinking) original.thinking = request.thinking;
  const fields = otherFieldValues(request, convertedFields);
  if (fields) original.fields = fields;
  if (hasServerTools(request)) {
    original.tools = request.tools;
    if (request.tool_choice) original.toolChoice = request.tool_choice;
  }
  const chat = withClaudeOriginal<ChatRequest, ClaudeRequestOriginal>(
    { model: request.model, messages, max_tokens: request.max_tokens },
    original,
  );
  const tools: ChatTool[] = (request.tools ?? []).filter(isClientTool).map((tool) =>
    withClaudeOriginal<ChatTool, ClaudeTool>(
      {
        type: 'function',
        function: { name: tool.name, description: tool.description, parameters: tool.input_schema },
      },
      tool,
    ),
  );
  if (tools.length > 0) {
    chat.tools = tools;
    const choice = toolChoice(request.tool_choice);
    if (choice) chat.tool_choice = choice;
    if (request.tool_choice?.disable_parallel_tool_use) chat.parallel_tool_calls = false;
  }
  if (typeof request.temperature === 'number') chat.temperature = request.temperature;
  if (typeof request.top_p === 'number') chat.top_p = request.top_p;
  if (typeof request.top_k === 'number') chat.top_k = request.top_k;
  if (request.stop_sequences?.length) chat.stop = request.stop_sequences;
  if (request.metadata?.user_id) chat.user = request.metadata.user_id;
  const effort = thinkingEffort(request);
  if (effort) (chat as ChatRequest & { reasoning_effort?: string }).reasoning_effort = effort;
  if (request.stream) {
    chat.stream = true;
    chat.stream_options = { include_usage: true };
  }
  return chat;
}
