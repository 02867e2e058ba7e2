import type { RelayCall, UpstreamRequest } from '../../adaptor.js';
import { messageText, readChatRequest } from '../openai-kit/chat-request.js';
import { vendorError } from '../openai-kit/upstream-errors.js';
import type { LibraryRequest } from './types.js';

/** The library answers one question: the last message's text, within the channel's `library_id`. */
export function libraryBody(call: RelayCall): LibraryRequest {
  // Channels saved by old one-api versions keep the library id in the legacy `other` column (→ api_version).
  const libraryId = (call.channel.config.library_id || call.channel.config.api_version)?.trim();
  if (!libraryId) {
    throw vendorError(
      500,
      'the AI Proxy library channel has no library_id in its settings',
      'one_api_error',
      'invalid_channel_config',
    );
  }
  const request = readChatRequest(call);
  const last = request.messages.at(-1);
  return { model: call.model, query: last ? messageText(last.content) : '', libraryId, stream: call.stream };
}

/** `POST <base>/api/library/ask` with the key as a Bearer token. */
export function buildLibraryRequest(call: RelayCall): UpstreamRequest {
  return {
    url: `${call.channel.baseUrl}/api/library/ask`,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: call.stream ? 'text/event-stream' : 'application/json',
      authorization: `Bearer ${call.channel.key}`,
    },
    body: JSON.stringify(libraryBody(call)),
  };
}
