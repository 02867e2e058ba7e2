import type {
  ChatContentPart,
  ChatMessage,
  ChatRequest,
  ChatTextPart,
  ChatTool,
  ChatToolCall,
  ChatToolChoice,
} from '../../adaptors/openai-kit/chat-types.js';
import { effortForBudget } from '../../adaptors/openai-kit/reasoning-effort.js';
import { geminiSchemaToJsonSchema } from './schema.js';
import type { GeminiFrontContent, GeminiFrontPart, GeminiFrontRequest } from './types.js';

/** The top-level fields the conversion to OpenAI's request carries. */
const convertedFields: ReadonlySet<string> = new Set([
  'contents',
  'systemInstruction',
  'tools',
  'toolConfig',
  'generationConfig',
]);

/** The generationConfig fields OpenAI's request has a place for. */
const convertedGenerationFields: ReadonlySet<string> = new Set([
  'temperature',
  'topP',
  'maxOutputTokens',
  'candidateCount',
  'stopSequences',
  'seed',
  'presencePenalty',
  'frequencyPenalty',
  'responseMimeType',
  'responseSchema',
  'responseJsonSchema',
  'thinkingConfig',
]);

/** A part's fields the conversion carries (one of the kinds, `thought` read as reasoning). */
const convertedPartFields: ReadonlySet<string> = new Set([
  'text',
  'thought',
  'inlineData',
  'fileData',
  'functionCall',
  'functionResponse',
]);

const convertedDeclarationFields: ReadonlySet<string> = new Set([
  'name',
  'description',
  'parameters',
  'parametersJsonSchema',
]);

/** Audio formats OpenAI's `input_audio` part takes, by mime type. */
const audioFormats: Record<string, string> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/mp3': 'mp3',
  'audio/mpeg': 'mp3',
};

const otherFields = (value: object, kept: ReadonlySet<string>): string[] =>
  Object.keys(value).filter((key) => !kept.has(key));

/** The request converted, and what of it no OpenAI-shaped channel receives (by Google's field path). */
export interface ConvertedRequest {
  chat: ChatRequest;
  dropped: string[];
  /** The system message made of `systemInstruction`, if any (the pass-through tells a forced prompt by it). */
  system?: ChatMessage;
}

/** Converts one conversation; `dropped` collects what has no OpenAI form. */
class ContentsConverter {
  readonly messages: ChatMessage[] = [];
  /** Calls made so far that no functionResponse answered yet, oldest first. */
  private readonly unanswered: { id: string; name: string }[] = [];

  constructor(private readonly dropped: string[]) {}

  add(content: GeminiFrontContent, position: number): void {
    if (content.role === 'model') this.addModelTurn(content, position);
    else this.addUserTurn(content, `contents[${position}]`);
  }

  private addModelTurn(content: GeminiFrontContent, position: number): void {
    const path = `contents[${position}]`;
    let text = '';
    const toolCalls: ChatToolCall[] = [];
    for (const [index, part] of content.parts.entries()) {
      const partPath = `${path}.parts[${index}]`;
      this.dropOtherFields(part, partPath);
      if (part.functionCall) {
        // Gemini names calls only lately: an unnamed one gets its place as id, for its answer to refer to.
        const id = part.functionCall.id || `call_${position}_${index}`;
        this.unanswered.push({ id, name: part.functionCall.name });
        toolCalls.push({
          id,
          type: 'function',
          function: { name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args ?? {}) },
        });
      } else if (part.thought) {
        // Earlier reasoning is not sent back to OpenAI-shaped upstreams (they take none).
        this.dropped.push(`${partPath}.thought`);
      } else if (typeof part.text === 'string') {
        text += part.text;
      } else {
        this.dropUnconverted(part, partPath);
      }
    }
    if (text === '' && toolCalls.length === 0) return;
    const message: ChatMessage = { role: 'assistant', content: text === '' ? null : text };
    if (toolCalls.length > 0) message.tool_calls = toolCalls;
    this.messages.push(message);
  }

  /**
   * A user turn: its function responses as tool messages first (they must follow the call), then the rest.
   * An answer takes the open call of its id; one without (or with an id no call has) the oldest of its name.
   */
  private addUserTurn(content: GeminiFrontContent, path: string): void {
    const answered = new Map<number, string>();
    for (const [index, { functionResponse }] of content.parts.entries()) {
      const id = functionResponse?.id;
      if (id && this.takeCall((call) => call.id === id)) answered.set(index, id);
    }
    for (const [index, { functionResponse }] of content.parts.entries()) {
      if (!functionResponse || answered.has(index)) continue;
      const id = this.takeCall((call) => call.name === functionResponse.name);
      if (id) answered.set(index, id);
    }
    const parts: ChatContentPart[] = [];
    for (const [index, part] of content.parts.entries()) {
      const partPath = `${path}.parts[${index}]`;
      this.dropOtherFields(part, partPath);
      if (part.functionResponse) {
        const callId = answered.get(index);
        const result = JSON.stringify(part.functionResponse.response ?? {});
        // An answer to no call of this conversation stays readable as text.
        if (callId) this.messages.push({ role: 'tool', tool_call_id: callId, content: result });
        else parts.push({ type: 'text', text: `${part.functionResponse.name}: ${result}` });
        continue;
      }
      const converted = userPart(part);
      if (converted) parts.push(converted);
      else this.dropUnconverted(part, partPath);
    }
    if (parts.length === 0) return;
    const [first] = parts;
    const onlyText = parts.length === 1 && first?.type === 'text' ? (first as ChatTextPart).text : undefined;
    this.messages.push({ role: 'user', content: onlyText ?? parts });
  }

  /** Takes the oldest open call that `matches` out of the open ones; its id, or undefined. */
  private takeCall(matches: (call: { id: string; name: string }) => boolean): string | undefined {
    const position = this.unanswered.findIndex(matches);
    return position < 0 ? undefined : this.unanswered.splice(position, 1)[0]!.id;
  }

  /** Names the fields no conversion reads (executableCode, videoMetadata, thoughtSignature …). */
  private dropOtherFields(part: GeminiFrontPart, path: string): void {
    for (const field of otherFields(part, convertedPartFields)) this.dropped.push(`${path}.${field}`);
  }

  /** Names a part of a kind the conversion reads but could not convert here (a video, a file by URI …). */
  private dropUnconverted(part: GeminiFrontPart, path: string): void {
    for (const field of ['inlineData', 'fileData', 'functionCall', 'functionResponse'] as const)
      if (part[field]) this.dropped.push(`${path}.${field}`);
  }
}

/** A user part in OpenAI's words: text, an image, audio, a PDF or a text file; undefined when none fits. */
function userPart(part: GeminiFrontPart): ChatContentPart | undefined {
  if (typeof part.text === 'string') return { type: 'text', text: part.text };
  if (part.inlineData) {
    const { mimeType, data } = part.inlineData;
    const dataUrl = `data:${mimeType};base64,${data}`;
    if (mimeType.startsWith('image/')) return { type: 'image_url', image_url: { url: dataUrl } };
    const format = audioFormats[mimeType];
    if (format) return { type: 'input_audio', input_audio: { data, format } };
    if (mimeType === 'application/pdf') return { type: 'file', file: { filename: 'document.pdf', file_data: dataUrl } };
    if (mimeType.startsWith('text/')) return { type: 'text', text: Buffer.from(data, 'base64').toString('utf8') };
    return undefined;
  }
  if (part.fileData && (part.fileData.mimeType ?? '').startsWith('image/'))
    return { type: 'image_url', image_url: { url: part.fileData.fileUri } };
  return undefined;
}

/** The text of a content's text parts. */
export const contentText = (content: { parts?: { text?: string; thought?: boolean }[] } | undefined): string =>
  (content?.parts ?? [])
    .filter((part) => typeof part.text === 'string' && !part.thought)
    .map((part) => part.text)
    .join('\n');

function convertTools(request: GeminiFrontRequest, dropped: string[]): ChatTool[] {
  const tools: ChatTool[] = [];
  for (const [index, tool] of (request.tools ?? []).entries()) {
    for (const field of otherFields(tool, new Set(['functionDeclarations']))) dropped.push(`tools[${index}].${field}`);
    for (const [position, declaration] of (tool.functionDeclarations ?? []).entries()) {
      const path = `tools[${index}].functionDeclarations[${position}]`;
      for (const field of otherFields(declaration, convertedDeclarationFields)) dropped.push(`${path}.${field}`);
      const parameters =
        declaration.parametersJsonSchema ??
        (declaration.parameters ? geminiSchemaToJsonSchema(declaration.parameters) : undefined);
      tools.push({
        type: 'function',
        function: {
          name: declaration.name,
          ...(declaration.description ? { description: declaration.description } : {}),
          ...(parameters ? { parameters: parameters as Record<string, unknown> } : {}),
        },
      });
    }
  }
  return tools;
}

function toolChoice(request: GeminiFrontRequest, dropped: string[]): ChatToolChoice | undefined {
  const config = request.toolConfig?.functionCallingConfig;
  for (const field of otherFields(request.toolConfig ?? {}, new Set(['functionCallingConfig'])))
    dropped.push(`toolConfig.${field}`);
  if (!config) return undefined;
  const names = config.allowedFunctionNames ?? [];
  if (config.mode === 'NONE') return 'none';
  if (config.mode !== 'ANY') return config.mode ? 'auto' : undefined;
  if (names.length === 1) return { type: 'function', function: { name: names[0]! } };
  if (names.length > 1) dropped.push('toolConfig.functionCallingConfig.allowedFunctionNames');
  return 'required';
}

/** generationConfig's sampling, limits and output format on the OpenAI request. */
function applyGenerationConfig(request: GeminiFrontRequest, chat: ChatRequest, dropped: string[]): void {
  const config = request.generationConfig;
  if (!config) return;
  for (const field of otherFields(config, convertedGenerationFields)) dropped.push(`generationConfig.${field}`);
  if (config.temperature !== undefined) chat.temperature = config.temperature;
  if (config.topP !== undefined) chat.top_p = config.topP;
  if (config.maxOutputTokens !== undefined) chat.max_tokens = config.maxOutputTokens;
  if (config.candidateCount !== undefined && config.candidateCount > 1) chat.n = config.candidateCount;
  if (config.stopSequences?.length) chat.stop = config.stopSequences;
  if (config.seed !== undefined) chat.seed = config.seed;
  if (config.presencePenalty !== undefined) chat.presence_penalty = config.presencePenalty;
  if (config.frequencyPenalty !== undefined) chat.frequency_penalty = config.frequencyPenalty;
  const schema =
    config.responseJsonSchema ?? (config.responseSchema ? geminiSchemaToJsonSchema(config.responseSchema) : undefined);
  if (config.responseMimeType === 'application/json')
    chat.response_format = schema
      ? { type: 'json_schema', json_schema: { name: 'response', schema: schema as Record<string, unknown> } }
      : { type: 'json_object' };
  else if (config.responseMimeType && config.responseMimeType !== 'text/plain')
    dropped.push('generationConfig.responseMimeType');
  const effort = thinkingEffort(config.thinkingConfig);
  if (effort) (chat as ChatRequest & { reasoning_effort?: string }).reasoning_effort = effort;
}

const thinkingLevels: ReadonlySet<string> = new Set(['minimal', 'low', 'medium', 'high']);

/**
 * thinkingConfig as OpenAI's reasoning effort: Gemini 3's level as it is, Gemini 2.5's budget by size
 * (`effortForBudget`); a dynamic budget (-1) or none leaves the model its default. Thoughts come back as
 * reasoning wherever the channel returns any.
 */
function thinkingEffort(config: NonNullable<GeminiFrontRequest['generationConfig']>['thinkingConfig']) {
  const level = config?.thinkingLevel?.toLowerCase();
  if (level && thinkingLevels.has(level)) return level;
  const budget = config?.thinkingBudget;
  return typeof budget === 'number' && budget >= 0 ? effortForBudget(budget) : undefined;
}

/**
 * A generateContent request as an OpenAI chat request, for any channel: systemInstruction as the system
 * message, model turns as assistant messages with tool calls, function responses as tool messages (matched
 * to their call by id, else by name), function declarations as tools (Gemini's schemas in JSON Schema's
 * words), generationConfig as sampling, limits and response_format. What OpenAI has no form for (Google's
 * own tools, safetySettings, thought signatures, topK …) is listed in `dropped`; thinkingConfig becomes the
 * reasoning effort.
 */
export function geminiToChatRequest(request: GeminiFrontRequest, model: string, stream: boolean): ConvertedRequest {
  const dropped = otherFields(request, convertedFields);
  const converter = new ContentsConverter(dropped);
  const systemText = contentText(request.systemInstruction);
  const system: ChatMessage | undefined = systemText ? { role: 'system', content: systemText } : undefined;
  if (system) converter.messages.push(system);
  for (const [index, part] of (request.systemInstruction?.parts ?? []).entries())
    if (typeof part.text !== 'string') dropped.push(`systemInstruction.parts[${index}]`);
  for (const [index, content] of request.contents.entries()) converter.add(content, index);
  const chat: ChatRequest = { model, messages: converter.messages };
  const tools = convertTools(request, dropped);
  if (tools.length > 0) {
    chat.tools = tools;
    const choice = toolChoice(request, dropped);
    if (choice) chat.tool_choice = choice;
  }
  applyGenerationConfig(request, chat, dropped);
  if (stream) {
    chat.stream = true;
    chat.stream_options = { include_usage: true };
  }
  return { chat, dropped, ...(system ? { system } : {}) };
}
