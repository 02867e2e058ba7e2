import { isObject } from '../../adaptors/openai-kit/json.js';
import { ResponsesRequestError } from './errors.js';
import type { ResponsesInputItem } from './types.js';

/**
 * `input` with each `item_reference` replaced by the item it names, found by `find` among the user's stored
 * responses (the Vercel AI SDK refers to earlier output items so, instead of sending them again, whenever
 * responses are stored). The gateway holds those items, not the upstream (which is told to store nothing), so
 * it sends them whole; `referenced` holds the items that were put in. An item that is not found is refused as
 * OpenAI refuses it.
 */
export async function resolveItemReferences(
  input: ResponsesInputItem[],
  find: (id: string) => Promise<ResponsesInputItem | undefined>,
): Promise<{ items: ResponsesInputItem[]; referenced: Set<ResponsesInputItem> }> {
  const referenced = new Set<ResponsesInputItem>();
  if (!input.some((item) => isObject(item) && item.type === 'item_reference')) return { items: input, referenced };
  const items: ResponsesInputItem[] = [];
  for (const [index, item] of input.entries()) {
    if (!isObject(item) || item.type !== 'item_reference') {
      items.push(item);
      continue;
    }
    if (typeof item.id !== 'string') throw new ResponsesRequestError(`input.${index}.id`, 'expected a string');
    const found = await find(item.id);
    if (!found) throw new ResponsesRequestError(`input.${index}.id`, `Item with id '${item.id}' not found.`);
    referenced.add(found);
    items.push(found);
  }
  return { items, referenced };
}
