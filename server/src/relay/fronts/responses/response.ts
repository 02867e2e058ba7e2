import type { Usage } from '../../adaptor.js';
import type { ChatCompletion } from '../../adaptors/openai-kit/chat-types.js';
import { isObject } from '../../adaptors/openai-kit/json.js';
import { randomHex } from '../../../lib/random.js';
import type {
  ResponsesInputItem,
  ResponseStatus,
  ResponsesOutputItem,
  ResponsesRequest,
  ResponsesResponse,
  ResponsesUsage,
} from './types.js';

/**
 * Ids in OpenAI's style: `resp_…` for responses, `msg_…` and `fc_…` for output items. A response id starts with
 * the time in milliseconds (12 hex digits) and ends with 18 random bytes: stored responses are keyed by it, and
 * random keys put each new row on another leaf of the key's index, a page written to the WAL per row (three
 * times the work of ids that land together at the index's end).
 */
export const responseId = () => `resp_${Date.now().toString(16).padStart(12, '0')}${randomHex(18)}`;
export const messageItemId = () => `msg_${randomHex(24)}`;
export const functionCallItemId = () => `fc_${randomHex(24)}`;
export const reasoningItemId = () => `rs_${randomHex(24)}`;

/**
 * An input item with an id, as OpenAI lists stored input items (`input_items` pages by id): clients may send
 * items without one (a bare string input, the SDKs' easy messages).
 */
export const inputItemWithId = (item: ResponsesInputItem): ResponsesInputItem =>
  typeof item.id === 'string'
    ? item
    : { id: `${item.type === 'message' || !item.type ? 'msg' : 'item'}_${randomHex(24)}`, ...item };

/** OpenAI chat usage, with the prompt's cached part and the completion's reasoning part when reported. */
export type ChatUsageDetails = Partial<Omit<Usage, 'prompt_tokens_details'>> & {
  prompt_tokens_details?: { cached_tokens?: unknown } | null;
  completion_tokens_details?: { reasoning_tokens?: unknown } | null;
};

const count = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;

/** Chat usage in the Responses API's words. */
export function responsesUsage(usage: ChatUsageDetails | null | undefined): ResponsesUsage {
  const input = count(usage?.prompt_tokens);
  const output = count(usage?.completion_tokens);
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: Math.min(count(usage?.prompt_tokens_details?.cached_tokens), input) },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: count(usage?.completion_tokens_details?.reasoning_tokens) },
    total_tokens: count(usage?.total_tokens) || input + output,
  };
}

/** How a chat finish reason ends a response: `length` and `content_filter` leave it incomplete. */
export function responseEnding(
  finishReason: string | null | undefined,
): Pick<ResponsesResponse, 'status' | 'incomplete_details'> {
  if (finishReason === 'length') return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  if (finishReason === 'content_filter')
    return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  return { status: 'completed', incomplete_details: null };
}

/** What a response object repeats of its request, and its identity (fixed before the answer arrives). */
export interface ResponseContext {
  id: string;
  createdAt: number;
  request: ResponsesRequest;
}

/** The response object around its output: the request's settings as OpenAI echoes them. */
export function responseObject(
  context: ResponseContext,
  status: ResponseStatus,
  output: ResponsesOutputItem[],
  usage: ResponsesUsage | null,
): ResponsesResponse {
  const { request } = context;
  return {
    id: context.id,
    object: 'response',
    created_at: context.createdAt,
    status,
    error: null,
    incomplete_details: null,
    instructions: typeof request.instructions === 'string' ? request.instructions : null,
    max_output_tokens: request.max_output_tokens ?? null,
    model: request.model,
    output,
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: request.previous_response_id ?? null,
    reasoning: { effort: request.reasoning?.effort ?? null, summary: request.reasoning?.summary ?? null },
    store: request.store !== false,
    temperature: request.temperature ?? null,
    text: { format: request.text?.format ?? { type: 'text' } },
    tool_choice: request.tool_choice ?? 'auto',
    tools: request.tools ?? [],
    top_p: request.top_p ?? null,
    truncation: 'disabled',
    usage,
    user: request.user ?? null,
    metadata: isObject(request.metadata) ? request.metadata : {},
  };
}

/**
 * A chat completion (first choice) as a Responses `response` object: its reasoning (as a summary), its text
 * as a message, then its calls.
 */
export function chatCompletionToResponse(completion: ChatCompletion, context: ResponseContext): ResponsesResponse {
  const choice = completion.choices?.[0];
  const message = choice?.message;
  const ending = responseEnding(choice?.finish_reason);
  const itemStatus = ending.status === 'completed' ? 'completed' : 'incomplete';
  const output: ResponsesOutputItem[] = [];
  if (message?.reasoning_content)
    output.push({
      type: 'reasoning',
      id: reasoningItemId(),
      summary: [{ type: 'summary_text', text: message.reasoning_content }],
    });
  if (typeof message?.content === 'string' && message.content !== '')
    output.push({
      type: 'message',
      id: messageItemId(),
      status: itemStatus,
      role: 'assistant',
      content: [{ type: 'output_text', text: message.content, annotations: [], logprobs: [] }],
    });
  for (const call of message?.tool_calls ?? [])
    output.push({
      type: 'function_call',
      id: functionCallItemId(),
      call_id: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
      status: 'completed',
    });
  return {
    ...responseObject(context, ending.status, output, responsesUsage(completion.usage)),
    incomplete_details: ending.incomplete_details,
  };
}
