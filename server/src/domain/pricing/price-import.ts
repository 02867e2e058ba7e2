import type { ListPrice, PriceImportPreview, PriceTier } from '@modelgate/wire';
import type { AppContext } from '../../context.js';
import { ChannelType } from '../channel/channel.constants.js';
import { priceFromCost, type SkippedModel } from './models-dev.js';
import { priceBook } from './price-book.js';
import type { PriceFileEntry } from './price-file.js';
import { resolvePrice } from './resolve-price.js';

/** Models handled between two turns of the event loop (a price in force is resolved for each, ~0.1 ms). */
const sliceSize = 200;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Longer than any model name a price can be stored under: such an entry is skipped, and not echoed whole. */
const maxModelName = 191;
const clipped = (text: string) => (text.length > 64 ? `${text.slice(0, 64)}…` : text);

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
  // Most of a file's models have no price yet, and resolvePrice refuses them with an error whose stack is
  // never read: capturing it was the import's largest cost. The call is synchronous, so no other code runs
  // with the limit at 0.
  const stackLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    const resolved = resolvePrice(context, model, ChannelType.Custom, '');
    return {
      source: resolved.source,
      list: resolved.price.kind === 'list' ? resolved.price.list : null,
    };
  } catch {
    return { source: 'missing' as const, list: null };
  } finally {
    Error.stackTraceLimit = stackLimit;
  }
}

type PriceClasses = Omit<ListPrice, 'tiers'>;

/**
 * The model's own price (an admin's or the catalogue's) with the file's classes laid over it, tier by tier: a
 * class the file does not price (models.dev has no 1-hour cache write) keeps the price in force.
 */
export function mergeByClass(current: ListPrice | null, imported: ListPrice): ListPrice {
  if (!current) return imported;
  const { tiers: currentTiers = [], ...currentBase } = current;
  const { tiers: importedTiers = [], ...importedBase } = imported;
  const tiers = new Map<number, PriceTier>(currentTiers.map((tier) => [tier.above, tier]));
  for (const tier of importedTiers) tiers.set(tier.above, { ...tiers.get(tier.above), ...tier });
  const merged: ListPrice = { ...currentBase, ...importedBase };
  if (tiers.size > 0) merged.tiers = [...tiers.values()].sort((a, b) => a.above - b.above);
  return merged;
}

type ClassChange = PriceImportPreview['changes'][number]['classes'][number];

function compareClasses(
  above: number | null,
  before: PriceClasses | undefined,
  imported: PriceClasses | undefined,
  after: PriceClasses | undefined,
): ClassChange[] {
  const names = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})].filter((name) => name !== 'above'));
  const read = (prices: PriceClasses | undefined, name: string) =>
    (prices as Record<string, number | undefined> | undefined)?.[name] ?? null;
  return [...names].flatMap((name): ClassChange[] => {
    const was = read(before, name);
    const will = read(after, name);
    const base = { class: name, above, before: was, after: will };
    if (will === null) return [{ ...base, change: 'dropped' }];
    if (was === null) return [{ ...base, change: 'added' }];
    if (was !== will) return [{ ...base, change: 'changed' }];
    return read(imported, name) === null ? [{ ...base, change: 'kept' }] : [];
  });
}

/** Every class an import moves or keeps against the file, base prices then each tier. */
function classChanges(before: ListPrice | null, imported: ListPrice, after: ListPrice): ClassChange[] {
  const tier = (price: ListPrice | null, above: number) => price?.tiers?.find((entry) => entry.above === above);
  const thresholds = [...new Set([...(before?.tiers ?? []), ...(after.tiers ?? [])].map((entry) => entry.above))];
  const { tiers: _beforeTiers, ...beforeBase } = before ?? {};
  const { tiers: _importedTiers, ...importedBase } = imported;
  const { tiers: _afterTiers, ...afterBase } = after;
  return [
    ...compareClasses(null, before ? beforeBase : undefined, importedBase, afterBase),
    ...thresholds
      .sort((a, b) => a - b)
      .flatMap((above) => compareClasses(above, tier(before, above), tier(imported, above), tier(after, above))),
  ];
}

/** The models a channel serves (any type, any group). */
async function servedModels(context: AppContext): Promise<Set<string>> {
  const rows = await context.database.db.selectFrom('abilities').select('model').distinct().execute();
  return new Set(rows.map((row) => row.model));
}

/**
 * Compares a models.dev file with the prices in force and, when `apply`, stores the changed ones as
 * admin prices for every group (only those in `models` when given). Each model's price in force is merged
 * with the file class by class; models two chosen providers price differently are left out as conflicts,
 * with both prices; a price equal to the one in force is not stored again.
 */
export async function importPrices(
  context: AppContext,
  entries: readonly PriceFileEntry[],
  options: { providers?: readonly string[]; models?: readonly string[]; apply: boolean },
): Promise<PriceImportPreview> {
  const wanted = options.providers ? new Set(options.providers) : undefined;
  const skipped: SkippedModel[] = [];
  const byModel = new Map<string, { provider: string; price: ListPrice }[]>();
  // A large file is read in slices, so that other requests are answered between them.
  for (const [index, { provider, model, cost }] of entries.entries()) {
    if (index % sliceSize === sliceSize - 1) await nextTurn();
    if (wanted && !wanted.has(provider)) continue;
    if (model.length > maxModelName || provider.length > maxModelName) {
      skipped.push({ provider: clipped(provider), model: clipped(model), reason: 'name longer than 191 characters' });
      continue;
    }
    const price = priceFromCost(cost);
    if (typeof price === 'string') {
      skipped.push({ provider, model, reason: price });
      continue;
    }
    const offers = byModel.get(model) ?? [];
    if (!offers.some((offer) => sameContent(offer.price, price))) offers.push({ provider, price });
    byModel.set(model, offers);
  }
  const served = await servedModels(context);
  const changes: PriceImportPreview['changes'] = [];
  const conflicts: PriceImportPreview['conflicts'] = [];
  let unchanged = 0;
  let handled = 0;
  for (const [model, offers] of byModel) {
    if (++handled % sliceSize === 0) await nextTurn();
    if (offers.length > 1) {
      conflicts.push({ model, prices: offers });
      continue;
    }
    const { provider, price } = offers[0]!;
    const current = currentPrice(context, model);
    // Only the model's own price is merged: a default or a ratio is not this model's list to keep classes of.
    const own = current.source === 'admin' || current.source === 'catalogue' ? current.list : null;
    const after = mergeByClass(own, price);
    if (current.list && sameContent(current.list, after)) {
      unchanged += 1;
      continue;
    }
    changes.push({
      model,
      provider,
      served: served.has(model),
      before: current.list,
      before_source: current.source,
      after,
      classes: classChanges(current.list, price, after),
    });
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
  conflicts.sort((a, b) => a.model.localeCompare(b.model));
  return { changes, unchanged, conflicts, skipped, applied };
}
