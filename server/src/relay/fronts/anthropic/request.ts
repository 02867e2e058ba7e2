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
import type { AnthropicClientHeaders } from './client-headers.js';
import { documentText, inlinePdf } from './documents.js';

/** A Messages API request as clients send it to the gateway (the wire type plus the fields we tolerate). */
export type AnthropicFrontRequest = Omit<ClaudeRequest, 'tools'> & {
  model: string;
  tools?: ((ClaudeTool & { type?: string }) | ClaudeServerTool)[];
};

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
const fromBlocks = (message: ChatMessage, blocks: ClaudeContentBlock[]): ChatMessage =>
  withClaudeOriginal<ChatMessage, ClaudeMessageOriginal>(message, { content: message.content, blocks });

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
function userMessages(blocks: ClaudeContentBlock[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  const parts: ChatContentPart[] = [];
  const others: ClaudeContentBlock[] = [];
  let documents = false;
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
      documents = true;
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
  if (parts.length === 0 && !documents) return messages;
  const onlyText = parts.every((part) => part.type === 'text');
  const content = onlyText ? parts.map((part) => (part as { text: string }).text).join('\n') : parts;
  messages.push(fromBlocks({ role: 'user', content }, others));
  return messages;
}

/** An assistant turn; its thinking blocks (with their signatures) ride along for Claude upstreams only. */
function assistantMessage(blocks: ClaudeContentBlock[]): ChatMessage {
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
  return fromBlocks(message, blocks);
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
    if (message.role === 'assistant') messages.push(assistantMessage(blocks));
    else messages.push(...userMessages(blocks));
  }
  const original: ClaudeRequestOriginal = { ...headers };
  if (request.thinking) original.thinking = request.thinking;
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
  if (request.stream) {
    chat.stream = true;
    chat.stream_options = { include_usage: true };
  }
  return chat;
}
