import { isObject } from '../../adaptors/openai-kit/json.js';
import type { ResponsesInputItem, ResponsesRequest } from './types.js';

/** A stored item as the upstream may read it back, or undefined when it cannot be sent without server state. */
function resendable(item: ResponsesInputItem): ResponsesInputItem | undefined {
  if (item.type === 'reasoning') {
    // A reasoning item is only readable with its encrypted content when the upstream kept nothing (store:
    // false); without it OpenAI answers that the item is not found. The model then goes on without it.
    return typeof item.encrypted_content === 'string' ? item : undefined;
  }
  // Ids of earlier items are the gateway's own or those of another channel: with nothing stored upstream they
  // name nothing there, so the items go without them (ids are optional on input items).
  const { id: _id, ...rest } = item;
  return rest;
}

/** `item` as the upstream may read it back, in a list of none or one. */
const resent = (item: ResponsesInputItem): ResponsesInputItem[] => {
  const kept = isObject(item) ? resendable(item) : undefined;
  return kept ? [kept] : [];
};

/**
 * The Responses request as it goes to a channel that serves the Responses API natively. ModelGate keeps the
 * conversation itself, so that it can continue on any channel (a response stored after a Claude channel
 * answered can be continued on OpenAI and the other way round): `previous_response_id` is expanded here into
 * the earlier items (`previous`) and `item_reference`s were replaced by the stored items (`referenced`), the
 * upstream is told to store nothing (`store: false`: the gateway stores the answer, and an upstream copy would
 * be a second copy of the user's data nobody can delete through us), and the id it would not know is left out.
 * `background` never reaches here (the front refuses it).
 */
export function nativeResponsesRequest(
  request: ResponsesRequest,
  previous: ResponsesInputItem[],
  input: ResponsesInputItem[],
  referenced: ReadonlySet<ResponsesInputItem>,
): Record<string, unknown> {
  const { previous_response_id: _previous, ...rest } = request;
  if (previous.length === 0 && referenced.size === 0) return { ...rest, store: false };
  const current = input.flatMap((item) => (referenced.has(item) ? resent(item) : [item]));
  return { ...rest, input: [...previous.flatMap(resent), ...current], store: false };
}
