import type { RelayCall, UpstreamRequest } from '../../adaptor.js';
import { messageText, readChatRequest } from '../openai-kit/chat-request.js';
import { requiredKey } from '../openai-kit/upstream-errors.js';
import type { DeeplRequest } from './types.js';

/** Bare codes DeepL deprecated as targets, replaced by the regional variant. */
const targetVariants: Record<string, string> = { EN: 'EN-US', PT: 'PT-BR' };

/** The target language of a `deepl-<lang>` model, in DeepL's upper-case codes; ZH when there is none. */
export function deeplTargetLanguage(model: string): string {
  const dash = model.indexOf('-');
  const code = dash === -1 ? 'ZH' : model.slice(dash + 1).toUpperCase();
  return targetVariants[code] ?? (code || 'ZH');
}

/** The text to translate: the last message's text. */
export function deeplText(call: RelayCall): string {
  const messages = readChatRequest(call).messages;
  return messageText(messages.at(-1)?.content);
}

/** `POST {base}/v2/translate` with the `DeepL-Auth-Key` header. */
export function buildDeeplRequest(call: RelayCall): UpstreamRequest {
  const key = requiredKey(call.channel.key, 'DeepL', 'an authentication key');
  const body: DeeplRequest = { text: [deeplText(call)], target_lang: deeplTargetLanguage(call.model) };
  return {
    url: `${call.channel.baseUrl}/v2/translate`,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `DeepL-Auth-Key ${key}` },
    body: JSON.stringify(body),
  };
}
