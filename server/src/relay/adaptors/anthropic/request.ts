import { outputLimitOf } from '../../../domain/pricing/output-limits.js';
import type { RelayCall, UpstreamRequest } from '../../adaptor.js';
import { noteDropped } from '../../fronts/dropped-header.js';
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
import { reasoningEffortOf, thinkingBudgets } from '../openai-kit/reasoning-effort.js';
import { requiredKey } from '../openai-kit/upstream-errors.js';
import {
  claudeOriginalOf,
  claudeRequestOriginal,
  unchangedOriginal,
  type ClaudeRequestOriginal,
} from './claude-original.js';
import { channelBetas, strippedBetaNames } from './request-betas.js';
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
  /** Collects what of the OpenAI request the Messages body leaves out (for `x-modelgate-dropped`). */
  dropped?: string[];
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

/** The tool a Claude answer to a `response_format` request comes back through (see `answerTool`). */
export const answerToolName = 'structured_answer';

/**
 * The request's `response_format` (json_schema, json_object; the Responses front's `text.format` arrives as
 * one) as a tool whose input is the answer: Claude is made to call it and its input becomes the message
 * content (response.ts, stream.ts). A forced tool works on every Claude model and on Bedrock and Vertex, where
 * Anthropic's own structured output (`output_config.format`) is not served on InvokeModel/rawPredict.
 */
export function answerTool(request: ChatRequest): ClaudeTool | undefined {
  const format = request.response_format;
  if (format?.type !== 'json_schema' && format?.type !== 'json_object') return undefined;
  const schema = format.type === 'json_schema' ? format.json_schema : undefined;
  const description = (schema as { description?: unknown } | undefined)?.description;
  return {
    name: answerToolName,
    description: `Give your answer by calling this tool: its input is the answer, as JSON${
      typeof description === 'string' && description !== '' ? `. ${description}` : ''
    }.`,
    input_schema: schema?.schema ?? { type: 'object' },
  };
}

/** Whether Claude's answer to this request comes through the answer tool (see `answerTool`). */
export const answersThroughTool = (request: ChatRequest): boolean =>
  !claudeRequestOriginal(request) && answerTool(request) !== undefined;

/**
 * The answer tool added to the body: the only tool, forced, when the client offers none; beside the client's
 * tools otherwise, with `auto` turned into `any` (Claude then calls one of the client's tools or answers).
 */
function withAnswerTool(body: ClaudeRequest, tool: ClaudeTool): void {
  const offered = body.tools ?? [];
  body.tools = [...offered, tool];
  if (offered.length === 0 || !body.tool_choice || body.tool_choice.type === 'none')
    body.tool_choice = { type: 'tool', name: tool.name };
  else if (body.tool_choice.type === 'auto') body.tool_choice = { ...body.tool_choice, type: 'any' };
}

/** Claude models before 3.7 Sonnet, which have no extended thinking. */
const withoutThinking = /claude-(instant|2|3-(opus|sonnet|haiku)|3-5)/;

/**
 * `reasoning_effort` as Claude's thinking budget (`thinkingBudgets`), within `max_tokens`: a request without
 * an output limit gets the budget plus the usual 4,096 (at most the model's limit). Thinking cannot go with a
 * forced tool choice (the answer tool included) nor with changed sampling: the effort, or the temperature,
 * top_k and top_p Claude would refuse beside it, are left out and named.
 * https://docs.claude.com/en/docs/build-with-claude/extended-thinking#feature-compatibility
 */
function applyReasoningEffort(request: ChatRequest, body: ClaudeRequest, dropped: string[]): void {
  const effort = reasoningEffortOf(request);
  if (!effort || effort === 'none') return;
  const forcedTool = body.tool_choice?.type === 'any' || body.tool_choice?.type === 'tool';
  if (forcedTool || withoutThinking.test(body.model ?? '')) {
    dropped.push('reasoning_effort');
    return;
  }
  const budget = thinkingBudgets[effort];
  if (maxOutputTokens(request) === undefined)
    body.max_tokens = Math.min(budget + defaultClaudeMaxTokens, outputLimitOf(body.model ?? '') ?? Infinity);
  const thinking = thinkingWithin({ type: 'enabled', budget_tokens: budget }, body.max_tokens);
  if (!thinking) {
    dropped.push('reasoning_effort');
    return;
  }
  body.thinking = thinking;
  if (body.temperature !== undefined && body.temperature !== 1) {
    delete body.temperature;
    dropped.push('temperature');
  }
  if (body.top_k !== undefined) {
    delete body.top_k;
    dropped.push('top_k');
  }
  if (body.top_p !== undefined && body.top_p < 0.95) {
    delete body.top_p;
    dropped.push('top_p');
  }
}

/**
 * The OpenAI chat request as a Messages API body (model included; Bedrock and Vertex remove it). A request
 * from the Anthropic front also gets back its tools as sent and its `thinking` parameter, and on Anthropic's
 * own API its system turns in place and every other field it came with. Another client's `response_format`
 * becomes the forced answer tool and its `reasoning_effort` a thinking budget (what cannot be sent is put in
 * `target.dropped`).
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
  if (!front) {
    const dropped = target.dropped ?? [];
    const tool = answerTool(request);
    if (tool) withAnswerTool(body, tool);
    applyReasoningEffort(request, body, dropped);
    return body;
  }
  front.sentToChannel = target.channelId;
  return target.firstParty ? { ...front.fields, ...body } : body;
}

/**
 * The Messages body for a call on a Claude channel (Anthropic, Bedrock, Vertex), with the Anthropic front
 * client's beta flags this channel passes on (`channelBetas`). What the body and the betas leave out is noted
 * for `x-modelgate-dropped`.
 */
export function claudeCallRequest(
  call: RelayCall,
  target: Omit<ClaudeTarget, 'channelId' | 'dropped'> = {},
  request: ChatRequest = readChatRequest(call),
): { body: ClaudeRequest; betas: string[] } {
  const dropped: string[] = [];
  const body = toClaudeRequest(request, { ...target, channelId: call.channel.id, dropped });
  const { passed, stripped } = channelBetas(call.channel, claudeRequestOriginal(request)?.betas ?? []);
  dropped.push(...strippedBetaNames(stripped));
  noteDropped(call, dropped);
  return { body, betas: passed };
}

/**
 * `POST {base}/v1/messages` with `x-api-key` and `anthropic-version`. A call from the Anthropic front carries
 * its client's `anthropic-version` and the `anthropic-beta` flags the channel passes on (Claude Code's
 * interleaved thinking needs its flag); no other client header ever reaches the upstream.
 */
export function buildAnthropicRequest(call: RelayCall): UpstreamRequest {
  const key = requiredKey(call.channel.key, 'Anthropic', 'an API key');
  const front = call.native?.protocol === 'anthropic' ? call.native.original : undefined;
  const { body, betas } = (front && clientRequestAsSent(call, front)) ?? claudeCallRequest(call, { firstParty: true });
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: call.stream ? 'text/event-stream' : 'application/json',
    'x-api-key': key,
    'anthropic-version': front?.version ?? anthropicVersion,
  };
  if (betas.length > 0) headers['anthropic-beta'] = betas.join(',');
  return {
    url: `${call.channel.baseUrl}/v1/messages`,
    method: 'POST',
    headers,
    body: Buffer.isBuffer(body) ? body : JSON.stringify(body),
  };
}

/**
 * An Anthropic front request on Anthropic's own API (the native road): the body its client sent, with only the
 * upstream model (the channel's mapping), the output limit (a balance cap) and the thinking budget within that
 * limit set anew; its bytes as they came when none of these changed. Nothing is converted or rebuilt, so what
 * the client sent reaches Claude whole. Undefined when the channel forces its system prompt: the converted
 * road puts it in Claude's `system` (`claudeCallRequest`).
 */
function clientRequestAsSent(
  call: RelayCall,
  front: ClaudeRequestOriginal,
): { body: ClaudeRequest | Buffer; betas: string[] } | undefined {
  const prepared = call.body.kind === 'json' ? call.body.value : undefined;
  if (!front.sent || !prepared || prepared.messages !== front.sent.messages) return undefined;
  const sent = front.sent.body;
  const model = modelAliases[call.model] ?? call.model;
  const maxTokens = typeof prepared.max_tokens === 'number' ? prepared.max_tokens : sent.max_tokens;
  const thinking = sent.thinking && thinkingWithin(sent.thinking, maxTokens);
  const unchanged = model === sent.model && maxTokens === sent.max_tokens && thinking === sent.thinking;
  front.sentToChannel = call.channel.id;
  const { passed, stripped } = channelBetas(call.channel, front.betas ?? []);
  noteDropped(call, strippedBetaNames(stripped));
  if (unchanged) return { body: front.sent.bytes, betas: passed };
  const body: ClaudeRequest = { ...sent, model, max_tokens: maxTokens };
  if (sent.thinking) body.thinking = thinking;
  return { body, betas: passed };
}
