import type { EffectivePrice } from '@modelgate/wire';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/tables.js';
import { optionDefinitions } from '../option/option.definitions.js';
import { priceBook } from './price-book.js';
import { resolvePrice } from './resolve-price.js';

export interface Subject {
  model: string;
  channelType: number | null;
  group: string;
}

/** `gpt-4(3)` in one-api's ratio maps: the model on channel type 3. */
function fromRatioKey(key: string): Subject {
  const typed = /^(.*)\((\d+)\)$/.exec(key);
  return typed
    ? { model: typed[1]!, channelType: Number(typed[2]), group: '' }
    : { model: key, channelType: null, group: '' };
}

/** The price a subject is charged now, with its source. */
export function describe(context: AppContext, subject: Subject): EffectivePrice {
  const base = { model: subject.model, channel_type: subject.channelType, group: subject.group };
  try {
    // No channel type: priced as on a channel relaying any vendor's models (0 has no providers of its own).
    const resolved = resolvePrice(context, subject.model, subject.channelType ?? 8, subject.group);
    const { price } = resolved;
    return {
      ...base,
      source: resolved.source,
      price: price.kind === 'list' ? price.list : null,
      ratio:
        price.kind === 'ratio'
          ? { model_ratio: price.ratio.model_ratio, completion_ratio: price.ratio.completion_ratio }
          : null,
      reference: resolved.source === 'admin' ? '' : resolved.reference,
      note: resolved.source === 'admin' ? resolved.reference : '',
    };
  } catch {
    return { ...base, source: 'missing', price: null, ratio: null, reference: '', note: '' };
  }
}

/**
 * The prices an admin reviews: every model a channel serves (on its channel's type), every admin price,
 * and every model of the stored ModelRatio, each with the price the relay charges and its source.
 */
export async function effectivePrices(context: AppContext, filter?: string): Promise<EffectivePrice[]> {
  const served = await (context.database.db as Kysely<Database>)
    .selectFrom('abilities')
    .innerJoin('channels', 'channels.id', 'abilities.channel_id')
    .select(['abilities.model as model', 'channels.type as type'])
    .distinct()
    .execute();
  const book = priceBook(context);
  const adminPrices = book.all();
  const untypedAdmin = new Set(adminPrices.filter((price) => price.group === '').map((price) => price.model));
  const subjects: Subject[] = [
    // A served model priced by its admin price for every type is listed once, by that price's own row.
    ...served
      .filter((row) => !untypedAdmin.has(row.model) || book.find(`${row.model}(${row.type})`, '') !== null)
      .map((row) => ({ model: row.model, channelType: Number(row.type), group: '' })),
    ...adminPrices.map((price) => ({ ...fromRatioKey(price.model), group: price.group })),
  ];
  if (context.options.string('ModelRatio') !== optionDefinitions.ModelRatio.defaultValue)
    subjects.push(...Object.keys(context.options.json<Record<string, number>>('ModelRatio')).map(fromRatioKey));
  const seen = new Set<string>();
  const needle = filter?.toLowerCase();
  return subjects
    .filter((subject) => !needle || subject.model.toLowerCase().includes(needle))
    .filter((subject) => {
      const key = `${subject.model}\u0000${subject.channelType}\u0000${subject.group}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => a.model.localeCompare(b.model) || (a.channelType ?? 0) - (b.channelType ?? 0))
    .map((subject) => describe(context, subject));
}
