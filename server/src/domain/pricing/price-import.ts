import { readFile, stat } from 'node:fs/promises';
import type { ListPrice, PriceImportPreview } from '@modelgate/wire';
import type { AppContext } from '../../context.js';
import { AppError, invalidParameter, isAppError } from '../../lib/errors.js';
import { ChannelType } from '../../relay/channel-types.js';
import { readModelsDev } from './models-dev.js';
import { priceBook } from './price-book.js';
import { resolvePrice } from './resolve-price.js';

/** Larger than models.dev's whole api.json (a few MB). */
export const importLimitBytes = 32 * 1024 * 1024;

/** A models.dev file from a path on the server (root only: it reads the server's disk). */
export async function readPriceFile(path: string): Promise<unknown> {
  try {
    if ((await stat(path)).size > importLimitBytes) throw invalidParameter('the price file is larger than 32 MiB');
    return JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    if (isAppError(error)) throw error;
    throw new AppError('price_file_unreadable', {
      zh: `无法读取价格文件：${(error as Error).message}`,
      en: `cannot read the price file: ${(error as Error).message}`,
    });
  }
}

/** Prices compare by content: key order and absent classes do not make a change. */
const sameContent = (a: ListPrice, b: ListPrice) => JSON.stringify(sortedKeys(a)) === JSON.stringify(sortedKeys(b));

const sortedKeys = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(sortedKeys)
    : typeof value === 'object' && value !== null
      ? Object.fromEntries(
          Object.entries(value)
            .filter(([, inner]) => inner !== undefined)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([key, inner]) => [key, sortedKeys(inner)]),
        )
      : value;

/** What a call on a channel relaying any vendor's models (a custom channel) is charged now, for the diff. */
function currentPrice(context: AppContext, model: string) {
  try {
    const resolved = resolvePrice(context, model, ChannelType.Custom, '');
    return {
      source: resolved.source,
      list: resolved.price.kind === 'list' ? resolved.price.list : null,
    };
  } catch {
    return { source: 'missing' as const, list: null };
  }
}

/**
 * Compares a models.dev file with the prices in force and, when `apply`, stores the changed ones as
 * admin prices for every group (only those in `models` when given). Models two chosen providers price
 * differently are left out as conflicts; a price equal to the one in force is not stored again.
 */
export async function importPrices(
  context: AppContext,
  data: unknown,
  options: { providers?: readonly string[]; models?: readonly string[]; apply: boolean },
): Promise<PriceImportPreview> {
  const { prices, skipped } = readModelsDev(data, options.providers);
  const byModel = new Map<string, { provider: string; price: ListPrice }>();
  const conflicts = new Set<string>();
  for (const { provider, model, price } of prices) {
    const seen = byModel.get(model);
    if (seen && !sameContent(seen.price, price)) conflicts.add(model);
    else byModel.set(model, { provider, price });
  }
  const changes: PriceImportPreview['changes'] = [];
  let unchanged = 0;
  for (const [model, { provider, price }] of byModel) {
    if (conflicts.has(model)) continue;
    const current = currentPrice(context, model);
    if (current.list && sameContent(current.list, price)) {
      unchanged += 1;
      continue;
    }
    changes.push({ model, provider, before: current.list, before_source: current.source, after: price });
  }
  let applied = 0;
  if (options.apply) {
    const chosen = options.models ? new Set(options.models) : null;
    const date = new Date().toISOString().slice(0, 10);
    const rows = changes
      .filter((change) => !chosen || chosen.has(change.model))
      .map((change) => ({
        model: change.model,
        group: '',
        list: change.after,
        note: `models.dev ${change.provider} ${date}`,
      }));
    if (rows.length > 0) await priceBook(context).save(rows);
    applied = rows.length;
  }
  return { changes, unchanged, conflicts: [...conflicts].sort(), skipped, applied };
}
