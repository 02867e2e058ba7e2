import type { RelayCall, RelayResult, UpstreamErrorBody, UpstreamResponse } from '../../adaptor.js';
import { UpstreamError } from '../../upstream-error.js';
import { countMessages, countText } from '../../tokenizer/count-tokens.js';
import { nowSeconds } from '../../../lib/time.js';
import { chatCompletion, chatResult } from '../openai-kit/chat-answer.js';
import { bodyOf } from '../openai-kit/chat-request.js';
import { parseJsonObject, tryParseObject } from '../openai-kit/json.js';
import { vendorErrorBody } from '../openai-kit/upstream-errors.js';
import { usageOf } from '../openai-kit/usage.js';
import type { LibraryDocument, LibraryResponse } from './types.js';

/** The reference list one-api appends to library answers. */
export function documentsMarkdown(documents: LibraryDocument[] | undefined): string {
  if (!documents?.length) return '';
  return `\n\n参考文档：\n${documents.map((document, index) => `${index + 1}. [${document.title}](${document.url})\n`).join('')}`;
}

export function libraryErrorBody(answer: LibraryResponse, httpStatus: number): UpstreamErrorBody {
  const status = httpStatus >= 400 ? httpStatus : /key|token|auth/i.test(answer.message ?? '') ? 401 : 500;
  return vendorErrorBody(status, answer.message ?? '', 'aiproxy_library_error', answer.errCode ?? null);
}

/**
 * The library reports no usage, so it is counted here (one-api reported zeros, which billed nothing and made
 * the channel test pass by accident).
 */
export function countedUsage(call: RelayCall, content: string) {
  return usageOf(countMessages(bodyOf(call).messages, call.model), countText(content, call.model));
}

/** The answer with its reference documents, as a chat completion with locally counted usage. */
export function readLibraryResponse(response: UpstreamResponse, call: RelayCall): RelayResult {
  const answer = parseJsonObject(response.body) as unknown as LibraryResponse;
  if (!answer.success) throw new UpstreamError(libraryErrorBody(answer, response.status));
  const content = (answer.answer ?? '') + documentsMarkdown(answer.documents);
  return chatResult(
    chatCompletion({
      id: `chatcmpl-${nowSeconds()}`,
      created: nowSeconds(),
      model: call.model,
      message: { role: 'assistant', content },
      finishReason: 'stop',
      usage: countedUsage(call, content),
    }),
  );
}

export function readLibraryError(response: UpstreamResponse): UpstreamErrorBody {
  const answer = tryParseObject(response.body) as LibraryResponse | undefined;
  if (answer && (answer.message || answer.errCode)) return libraryErrorBody(answer, response.status);
  return vendorErrorBody(
    response.status >= 400 ? response.status : 500,
    response.body.toString('utf8').slice(0, 500),
    'aiproxy_library_error',
    null,
  );
}
