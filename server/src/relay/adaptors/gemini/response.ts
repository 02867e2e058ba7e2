import type { RelayCall, RelayResult, UpstreamErrorBody, UpstreamResponse } from '../../adaptor.js';
import { UpstreamError, unreadableAnswer } from '../../upstream-error.js';
import { readErrorBody } from '../openai/response.js';
import type { Usage } from '../../adaptor.js';
import { nowSeconds } from '../../../lib/time.js';
import { chatResult, completionId, toolCallId } from '../openai-kit/chat-answer.js';
import type { ChatAnswerMessage, ChatCompletion, ChatToolCall } from '../openai-kit/chat-types.js';
import { embeddingsResult } from '../openai-kit/embeddings-answer.js';
import { bodyExcerpt, isObject, parseJson, stringOf } from '../openai-kit/json.js';
import { errorBody } from '../openai-kit/upstream-errors.js';
import { idWithSignature } from './thought-signature.js';
import { countOf, usageOf, withUsageParts } from '../openai-kit/usage.js';
import { geminiCallOriginal, type WithGeminiAnswer } from './gemini-original.js';
import type {
  GeminiCandidate,
  GeminiEmbeddingResponse,
  GeminiModalityTokenCount,
  GeminiResponse,
  GeminiUsageMetadata,
} from './types.js';

const filtered = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'LANGUAGE',
]);

/** Gemini's finishReason in OpenAI's words; a candidate that called functions finishes with tool_calls. */
export function geminiFinishReason(reason: string | undefined, calledFunctions: boolean): string | null {
  if (!reason) return null;
  if (reason === 'MAX_TOKENS') return 'length';
  if (filtered.has(reason)) return 'content_filter';
  return calledFunctions ? 'tool_calls' : 'stop';
}

/** The tokens of one modality in a usageMetadata breakdown. */
function modalityTokens(details: GeminiModalityTokenCount[] | undefined, modality: string): number {
  let tokens = 0;
  for (const detail of details ?? []) if (detail.modality === modality) tokens += countOf(detail.tokenCount);
  return tokens;
}

/**
 * usageMetadata as OpenAI usage (https://ai.google.dev/api/generate-content#UsageMetadata): the prompt is
 * promptTokenCount (cached content included, reported as cache reads) plus the prompt of Google's own tools;
 * thinking tokens are billed as completion (reasoning). Audio and image tokens are told apart by modality,
 * the prompt's without their cached part (cache reads have their own price, whatever their modality).
 */
export function geminiUsage(metadata: GeminiUsageMetadata | undefined): Usage {
  const prompt = countOf(metadata?.promptTokenCount) + countOf(metadata?.toolUsePromptTokenCount);
  const thoughts = countOf(metadata?.thoughtsTokenCount);
  const completion = countOf(metadata?.candidatesTokenCount) + thoughts;
  const uncached = (modality: string) =>
    Math.max(
      0,
      modalityTokens(metadata?.promptTokensDetails, modality) - modalityTokens(metadata?.cacheTokensDetails, modality),
    );
  return withUsageParts(usageOf(prompt, completion, metadata?.totalTokenCount ?? prompt + completion), {
    cached: metadata?.cachedContentTokenCount,
    promptAudio: uncached('AUDIO'),
    promptImage: uncached('IMAGE'),
    reasoning: thoughts,
    completionAudio: modalityTokens(metadata?.candidatesTokensDetails, 'AUDIO'),
    completionImage: modalityTokens(metadata?.candidatesTokensDetails, 'IMAGE'),
  });
}

/** The text, reasoning and tool calls of one candidate. */
export function candidateContent(candidate: GeminiCandidate): {
  text: string;
  reasoning: string;
  toolCalls: ChatToolCall[];
} {
  let text = '';
  let reasoning = '';
  const toolCalls: ChatToolCall[] = [];
  for (const part of candidate.content?.parts ?? []) {
    if (part.functionCall) {
      toolCalls.push({
        id: idWithSignature(part.functionCall.id || toolCallId(), part.thoughtSignature),
        type: 'function',
        function: { name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args ?? {}) },
      });
    } else if (typeof part.text === 'string') {
      if (part.thought) reasoning += part.text;
      else text += part.text;
    }
  }
  return { text, reasoning, toolCalls };
}

/** A generateContent answer as an OpenAI chat completion, one choice per candidate. */
export function geminiToChatCompletion(response: GeminiResponse, model: string): ChatCompletion {
  const candidates = response.candidates ?? [];
  const choices: ChatCompletion['choices'] = candidates.map((candidate, position) => {
    const { text, reasoning, toolCalls } = candidateContent(candidate);
    const message: ChatAnswerMessage = {
      role: 'assistant',
      content: text === '' && toolCalls.length > 0 ? null : text,
    };
    if (reasoning) message.reasoning_content = reasoning;
    if (toolCalls.length > 0) message.tool_calls = toolCalls;
    return {
      index: candidate.index ?? position,
      message,
      finish_reason: geminiFinishReason(candidate.finishReason, toolCalls.length > 0) ?? 'stop',
    };
  });
  // A blocked prompt has no candidates: an empty answer filtered by content policy.
  if (choices.length === 0)
    choices.push({ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'content_filter' });
  return {
    id: completionId(),
    object: 'chat.completion',
    created: nowSeconds(),
    model,
    choices,
    usage: geminiUsage(response.usageMetadata),
  };
}

/** Google's error envelope as an OpenAI error (its `status`, e.g. INVALID_ARGUMENT, becomes type and code). */
export function googleErrorBody(status: number, parsed: unknown): UpstreamErrorBody | undefined {
  // The stream endpoint without alt=sse wraps answers in an array; errors too.
  const value = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!isObject(value) || !isObject(value.error)) return undefined;
  const message = stringOf(value.error.message);
  if (!message) return undefined;
  const type = stringOf(value.error.status) || 'upstream_error';
  return errorBody(status, message, type, type);
}

/** Reads a non-2xx Gemini (or Vertex) answer, keeping Google's message. */
export function readGeminiError(response: UpstreamResponse): UpstreamErrorBody {
  return googleErrorBody(response.status, parseJson(response.body)) ?? readErrorBody(response.status, response.body);
}

function parseObject(response: UpstreamResponse): Record<string, unknown> {
  const parsed = parseJson(response.body);
  const error = googleErrorBody(500, parsed);
  if (error) throw new UpstreamError(error);
  if (!isObject(parsed)) throw unreadableAnswer(`not a JSON object: ${bodyExcerpt(response.body)}`);
  return parsed;
}

/**
 * Converts a generateContent answer (chat) or an embedContent / batchEmbedContents answer (embeddings); for
 * the Gemini front the answer itself rides along.
 */
export function readGeminiResponse(response: UpstreamResponse, call: RelayCall): RelayResult {
  const parsed = parseObject(response);
  const original = geminiCallOriginal(call);
  if (call.mode === 'embeddings') {
    const { embeddings, embedding } = parsed as unknown as GeminiEmbeddingResponse;
    // Gemini reports no usage for embeddings; the pipeline counts the input itself.
    const result = embeddingsResult(
      call,
      (embeddings ?? (embedding ? [embedding] : [])).map((vector) => vector.values ?? []),
      undefined,
    );
    return original ? withGeminiAnswer(result, parsed) : result;
  }
  const completion: WithGeminiAnswer<ChatCompletion> = geminiToChatCompletion(parsed as GeminiResponse, call.model);
  if (original) completion.gemini_response = parsed;
  return chatResult(completion);
}

/** An embeddings result whose JSON also carries the Gemini answer, for the Gemini front to send back unchanged. */
function withGeminiAnswer(result: RelayResult, answer: Record<string, unknown>): RelayResult {
  const payload: WithGeminiAnswer<Record<string, unknown>> = {
    ...(JSON.parse(result.body.toString('utf8')) as Record<string, unknown>),
    gemini_response: answer,
  };
  return { ...result, body: Buffer.from(JSON.stringify(payload)) };
}
