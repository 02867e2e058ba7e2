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
import type { ChatContentPart, ChatMessage, ChatRequest, ChatToolChoice } from '../openai-kit/chat-types.js';
import { requiredKey } from '../openai-kit/upstream-errors.js';
import { claudeOriginalOf, claudeRequestOriginal, unchangedOriginal } from './claude-original.js';
import type {
  ClaudeContentBlock,
  ClaudeDocumentBlock,
  ClaudeImageBlock,
  ClaudeMessage,
  ClaudeRequest,
  ClaudeTextBlock,
  ClaudeTool,
  ClaudeToolChoice,
} from './types.js';

/** Claude needs `max_tokens`; one-api sends this when the client gives none. */
export const defaultClaudeMaxTokens = 4096;
export const anthropicVersion = '2023-06-01';

/** one-api's aliases for retired short names. */
const modelAliases: Record<string, string> = { 'claude-instant-1': 'claude-instant-1.1', 'claude-2': 'claude-2.1' };

/**
 * An OpenAI image part as a Claude image block: `data:` URLs become base64 sources; web URLs are handed to
 * Claude as URL sources, so the gateway never fetches arbitrary addresses itself.
 */
function imageBlock(url: string): ClaudeImageBlock {
  const inline = parseDataUrl(url);
  if (inline) return { type: 'image', source: { type: 'base64', media_type: inline.mediaType, data: inline.data } };
  return { type: 'image', source: { type: 'url', url } };
}

function userBlocks(parts: ChatContentPart[]): ClaudeContentBlock[] {
  const blocks: ClaudeContentBlock[] = [];
  for (const part of parts) {
    if (part.type === 'text' && typeof part.text === 'string' && part.text !== '')
      blocks.push({ type: 'text', text: part.text });
    if (part.type === 'image_url') {
      const imageUrl = (part as { image_url?: { url?: unknown } }).image_url;
      if (typeof imageUrl?.url === 'string') blocks.push(imageBlock(imageUrl.url));
    }
    if (part.type === 'file') {
      const document = pdfDocumentBlock(part);
      if (document) blocks.push(document);
    }
  }
  return blocks;
}

/** An OpenAI `file` part holding an inline PDF, as Claude's document block (its file name as the title). */
function pdfDocumentBlock(part: ChatContentPart): ClaudeDocumentBlock | undefined {
  const file = (part as { file?: { file_data?: unknown; filename?: unknown } }).file;
  const inline = typeof file?.file_data === 'string' ? parseDataUrl(file.file_data) : undefined;
  if (inline?.mediaType !== 'application/pdf') return undefined;
  const source = { type: 'base64' as const, media_type: 'application/pdf', data: inline.data };
  return typeof file?.filename === 'string' && file.filename !== ''
    ? { type: 'document', source, title: file.filename }
    : { type: 'document', source };
}

function assistantBlocks(message: ChatMessage): ClaudeContentBlock[] {
  const blocks: ClaudeContentBlock[] = [];
  const text = messageText(message.content);
  if (text !== '') blocks.push({ type: 'text', text });
  for (const call of message.tool_calls ?? []) {
    blocks.push({
      type: 'tool_use',
      id: call.id,
      name: call.function?.name ?? '',
      input: parseArguments(call.function?.arguments),
    });
  }
  return blocks;
}

function toolResultBlock(message: ChatMessage): ClaudeContentBlock {
  return {
    type: 'tool_result',
    tool_use_id: message.tool_call_id ?? message.name ?? '',
    content: messageText(message.content),
  };
}

/**
 * Thinking blocks without a signature (an OpenAI-protocol upstream's reasoning, shown to an Anthropic client)
 * cannot be checked by Claude, which rejects them: they are left out of the turns sent back.
 */
const sendable = (blocks: ClaudeContentBlock[]) =>
  blocks.filter((block) => block.type !== 'thinking' || Boolean(block.signature));

/** Who gets what the Anthropic front kept beyond OpenAI's shapes. */
interface ClaudeTarget {
  /**
   * Anthropic's own API: `system` turns stay in their place and the client's other fields (top-level and per
   * turn) are sent as they came. Bedrock and Vertex refuse fields they do not know, so they get neither: the
   * system turns join the top-level system there.
   */
  firstParty?: boolean;
  /** The channel the request is for, remembered on the Anthropic front's original (see `sentToChannel`). */
  channelId?: number;
}

/**
 * OpenAI messages as Claude turns: system and developer messages join the top-level `system`, tool answers
 * become `tool_result` blocks in a user turn, and consecutive turns of one role are merged (Claude wants
 * alternation). A message the Anthropic front made keeps the blocks it came from (cache_control, thinking and
 * signatures included); then `system` stays a list of text blocks. For Anthropic channels the front's
 * `system` turns inside the conversation stay where they were, with their own fields.
 */
export function toClaudeMessages(
  messages: ChatMessage[],
  target: ClaudeTarget = {},
): {
  system?: string | ClaudeTextBlock[];
  messages: ClaudeMessage[];
} {
  const system: ClaudeTextBlock[] = [];
  let systemKeepsBlocks = false;
  const turns: ClaudeMessage[] = [];
  for (const message of messages) {
    const original = unchangedOriginal(message);
    const fields = target.firstParty ? original?.fields : undefined;
    let role: ClaudeMessage['role'];
    let blocks: ClaudeContentBlock[];
    if ((message.role === 'system' || message.role === 'developer') && original?.inPlace && target.firstParty) {
      turns.push({ ...fields, role: 'system', content: [...original.blocks] });
      continue;
    } else if (message.role === 'system' || message.role === 'developer') {
      if (original) {
        system.push(...(original.blocks as ClaudeTextBlock[]));
        systemKeepsBlocks = true;
        continue;
      }
      const text = messageText(message.content);
      if (text !== '') system.push({ type: 'text', text });
      continue;
    } else if (message.role === 'assistant') {
      role = 'assistant';
      blocks = original ? sendable(original.blocks) : assistantBlocks(message);
    } else if (message.role === 'tool' || message.role === 'function') {
      role = 'user';
      blocks = original?.blocks ?? [toolResultBlock(message)];
    } else {
      role = 'user';
      blocks = original?.blocks ?? userBlocks(messageParts(message.content));
    }
    if (blocks.length === 0) continue;
    const last = turns.at(-1);
    if (last && last.role === role && Array.isArray(last.content)) {
      last.content.push(...blocks);
      Object.assign(last, fields);
    } else turns.push({ ...fields, role, content: [...blocks] });
  }
  if (system.length === 0) return { messages: turns };
  return { system: systemKeepsBlocks ? system : system.map((block) => block.text).join('\n'), messages: turns };
}

function toClaudeToolChoice(
  choice: ChatToolChoice | undefined,
  parallel: boolean | undefined,
): ClaudeToolChoice | undefined {
  let result: ClaudeToolChoice | undefined;
  if (choice === 'required' || choice === 'any') result = { type: 'any' };
  else if (choice === 'none') result = { type: 'none' };
  else if (typeof choice === 'object' && choice?.function?.name) result = { type: 'tool', name: choice.function.name };
  else if (choice === 'auto' || parallel === false) result = { type: 'auto' };
  if (result && parallel === false && result.type !== 'none') result.disable_parallel_tool_use = true;
  return result;
}

/** Claude's smallest thinking budget. */
const minimumThinkingBudget = 1024;

/**
 * The client's thinking parameter within `max_tokens`, which Claude requires to exceed the budget: a limit the
 * balance cut (see prepare-body.ts) below the budget lowers the budget with it, or turns thinking off when even
 * Claude's smallest budget no longer fits.
 */
function thinkingWithin(
  thinking: NonNullable<ClaudeRequest['thinking']>,
  maxTokens: number,
): ClaudeRequest['thinking'] {
  if (thinking.type !== 'enabled' || thinking.budget_tokens < maxTokens) return thinking;
  if (maxTokens - 1 < minimumThinkingBudget) return undefined;
  return { ...thinking, budget_tokens: maxTokens - 1 };
}

/**
 * The OpenAI chat request as a Messages API body (model included; Bedrock and Vertex remove it). A request
 * from the Anthropic front also gets back its tools as sent and its `thinking` parameter, and on Anthropic's
 * own API its system turns in place and every other field it came with.
 */
export function toClaudeRequest(request: ChatRequest, target: ClaudeTarget = {}): ClaudeRequest {
  const { system, messages } = toClaudeMessages(request.messages, target);
  const body: ClaudeRequest = {
    model: modelAliases[request.model] ?? request.model,
    max_tokens: maxOutputTokens(request) ?? defaultClaudeMaxTokens,
    messages,
  };
  if (system !== undefined) body.system = system;
  const tools = requestTools(request);
  const front = claudeRequestOriginal(request);
  // one-api drops the tools for an OpenAI client's "none"; an Anthropic client's `{type:"none"}` keeps them,
  // as Claude does, so that the cached prompt prefix (tools come first) stays the same.
  if (front?.tools) {
    // With server tools, the tools go back as sent (their order too: it is part of the cached prefix).
    body.tools = front.tools;
    if (front.toolChoice) body.tool_choice = front.toolChoice;
  } else if (tools.length > 0 && (request.tool_choice !== 'none' || front)) {
    body.tools = tools.map(
      (tool) =>
        claudeOriginalOf<ClaudeTool>(tool) ?? {
          name: tool.function.name,
          description: tool.function.description,
          input_schema: tool.function.parameters ?? { type: 'object', properties: {} },
        },
    );
    const choice = toClaudeToolChoice(request.tool_choice, request.parallel_tool_calls);
    if (choice) body.tool_choice = choice;
  }
  // Claude's temperature runs 0–1, OpenAI's 0–2.
  if (typeof request.temperature === 'number') body.temperature = Math.min(Math.max(request.temperature, 0), 1);
  if (typeof request.top_p === 'number') body.top_p = request.top_p;
  if (typeof request.top_k === 'number') body.top_k = request.top_k;
  const stop = stopList(request.stop);
  if (stop) body.stop_sequences = stop;
  if (request.stream) body.stream = true;
  if (typeof request.user === 'string' && request.user !== '') body.metadata = { user_id: request.user };
  if (front?.thinking) body.thinking = thinkingWithin(front.thinking, body.max_tokens);
  if (!front) return body;
  front.sentToChannel = target.channelId;
  return target.firstParty ? { ...front.fields, ...body } : body;
}

/**
 * The client's beta flags that Bedrock and Vertex serve as well. Claude Code sends first-party flags too
 * (`claude-code-20250219`, `fine-grained-tool-streaming-2025-05-14`, …) that those platforms may refuse with a
 * 400 (Claude Code itself filters its flags for Bedrock), so only flags known to work there are passed on.
 */
const platformBetaNames: ReadonlySet<string> = new Set(['interleaved-thinking-2025-05-14']);

/** The Anthropic front client's betas for Bedrock or Vertex (see `platformBetaNames`); empty otherwise. */
export const platformBetas = (request: ChatRequest): string[] =>
  (claudeRequestOriginal(request)?.betas ?? []).filter((beta) => platformBetaNames.has(beta));

/**
 * `POST {base}/v1/messages` with `x-api-key` and `anthropic-version`. A call from the Anthropic front carries
 * its client's `anthropic-version` and `anthropic-beta` (Claude Code's interleaved thinking needs its flag);
 * no other client header ever reaches the upstream.
 */
export function buildAnthropicRequest(call: RelayCall): UpstreamRequest {
  const key = requiredKey(call.channel.key, 'Anthropic', 'an API key');
  const request = readChatRequest(call);
  const front = claudeRequestOriginal(request);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: call.stream ? 'text/event-stream' : 'application/json',
    'x-api-key': key,
    'anthropic-version': front?.version ?? anthropicVersion,
  };
  if (front?.betas?.length) headers['anthropic-beta'] = front.betas.join(',');
  return {
    url: `${call.channel.baseUrl}/v1/messages`,
    method: 'POST',
    headers,
    body: JSON.stringify(toClaudeRequest(request, { firstParty: true, channelId: call.channel.id })),
  };
}
