import type { RelayCall, RelayResult, UpstreamResponse } from '../../adaptor.js';
import { UpstreamError, unreadableAnswer } from '../../upstream-error.js';
import { countMessages, countText } from '../../tokenizer/count-tokens.js';
import { chatCompletion, chatResult } from '../openai-kit/chat-answer.js';
import { readChatRequest } from '../openai-kit/chat-request.js';
import type { ChatCompletion } from '../openai-kit/chat-types.js';
import { bodyExcerpt, isObject, parseJson } from '../openai-kit/json.js';
import { usageOf } from '../openai-kit/usage.js';
import { googleErrorBody } from '../gemini/response.js';
import type { PalmResponse } from './types.js';

/**
 * A generateMessage answer as a chat completion. PaLM reports no usage, so tokens are counted here (as one-api
 * does); a reply withheld by a filter is an empty content_filter answer.
 */
export function palmToChatCompletion(body: Buffer, call: RelayCall): ChatCompletion {
  const parsed = parseJson(body);
  const error = googleErrorBody(500, parsed);
  if (error) throw new UpstreamError(error);
  if (!isObject(parsed)) throw unreadableAnswer(`not a JSON object: ${bodyExcerpt(body)}`);
  const answer = parsed as PalmResponse;
  const reply = answer.candidates?.[0]?.content;
  const filtered = reply === undefined && (answer.filters?.length ?? 0) > 0;
  const promptTokens = countMessages(readChatRequest(call).messages, call.model);
  const usage = usageOf(promptTokens, countText(reply ?? '', call.model));
  return chatCompletion({
    model: call.model,
    message: { role: 'assistant', content: reply ?? '' },
    finishReason: filtered ? 'content_filter' : 'stop',
    usage,
  });
}

export const readPalmResponse = (response: UpstreamResponse, call: RelayCall): RelayResult =>
  chatResult(palmToChatCompletion(response.body, call));
