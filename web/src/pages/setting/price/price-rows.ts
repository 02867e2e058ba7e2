import type { EffectivePrice, PriceSource } from '@modelgate/wire';

/** A row's identity in the table: a model can be listed per channel type and per group. */
export const priceRowKey = (row: EffectivePrice): string =>
  `${row.model}\u0000${row.channel_type ?? ''}\u0000${row.group}`;

/**
 * The key the admin's price of a row is stored under: `model(type)` or `model`. The list names a stored
 * `model(type)` by its model and type, which a served model on that type also shows, priced by either key; the
 * row is the typed key's unless the model's untyped admin price (listed with no type) is the same price.
 */
export function adminKeyOf(row: EffectivePrice, rows: readonly EffectivePrice[]): string {
  if (row.channel_type === null) return row.model;
  const untyped = rows.find(
    (other) =>
      other.model === row.model && other.channel_type === null && other.group === row.group && other.source === 'admin',
  );
  return untyped && JSON.stringify(untyped.price) === JSON.stringify(row.price)
    ? row.model
    : `${row.model}(${row.channel_type})`;
}

export interface PriceFilter {
  /** Case-insensitive part of the model name. */
  model: string;
  source: PriceSource | 'all';
}

export const filterPrices = (rows: readonly EffectivePrice[], filter: PriceFilter): EffectivePrice[] => {
  const needle = filter.model.trim().toLowerCase();
  return rows.filter(
    (row) =>
      (!needle || row.model.toLowerCase().includes(needle)) &&
      (filter.source === 'all' || row.source === filter.source),
  );
};
