import type { RelayCall, RelayResult, UpstreamResponse } from '../../adaptor.js';
import { unreadableAnswer } from '../../upstream-error.js';
import { chatCompletion, chatResult } from '../openai-kit/chat-answer.js';
import type { ChatCompletion } from '../openai-kit/chat-types.js';
import { bodyExcerpt, isObject, parseJson } from '../openai-kit/json.js';
import { usageOf } from '../openai-kit/usage.js';
import { deeplText } from './request.js';
import type { DeeplResponse } from './types.js';

/**
 * A translation as a chat answer. DeepL bills characters, so usage counts the characters translated as
 * prompt tokens (as one-api does) and nothing as completion.
 */
export function deeplToChatCompletion(body: Buffer, call: RelayCall): ChatCompletion {
  const parsed = parseJson(body);
  if (!isObject(parsed) || !Array.isArray(parsed.translations))
    throw unreadableAnswer(`no translations: ${bodyExcerpt(body)}`);
  const translation = (parsed as unknown as DeeplResponse).translations.map((item) => item.text).join('\n');
  const characters = [...deeplText(call)].length;
  return chatCompletion({
    model: call.model,
    message: { role: 'assistant', content: translation },
    finishReason: 'stop',
    usage: usageOf(characters, 0),
  });
}

export const readDeeplResponse = (response: UpstreamResponse, call: RelayCall): RelayResult =>
  chatResult(deeplToChatCompletion(response.body, call));
