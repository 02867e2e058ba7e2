import type { ListPrice, PriceTier } from '@modelgate/wire';
import type { TFunction } from 'i18next';
import { formatUsd } from '../../../lib/price';
import { TOKEN_FIELDS, UNIT_FIELDS } from './price-form-values';

/** 200000 → '200K', 1000000 → '1M'; another threshold as it is. */
export const tokensShort = (tokens: number): string =>
  tokens >= 1_000_000 && tokens % 100_000 === 0
    ? `${tokens / 1_000_000}M`
    : tokens >= 1000 && tokens % 100 === 0
      ? `${tokens / 1000}K`
      : String(tokens);

/** A tier in a line: '> 200K: 输入 $6，输出 $22.5'. */
export function tierText(tier: PriceTier, t: TFunction): string {
  const prices = TOKEN_FIELDS.flatMap((field) => {
    const value = tier[field];
    return value === undefined
      ? []
      : [t('price.summary.amount', { name: t(`price.field.${field}`), price: formatUsd(value) })];
  });
  return t('price.summary.tier', {
    tokens: tokensShort(tier.above),
    prices: prices.join(t('price.summary.separator')),
  });
}

/** The per-call and per-unit prices of a price, one text each ('每次调用 $0.01'). */
export function unitTexts(price: ListPrice, t: TFunction): string[] {
  return UNIT_FIELDS.flatMap((field) => {
    const value = price[field];
    return value === undefined ? [] : [t(`price.unit.${field}`, { price: formatUsd(value) })];
  });
}

/** A whole price in short lines: the token prices per 1M tokens, the unit prices, then each tier. */
export function priceLines(price: ListPrice, t: TFunction): string[] {
  const tokens = TOKEN_FIELDS.flatMap((field) => {
    const value = price[field];
    return value === undefined
      ? []
      : [t('price.summary.amount', { name: t(`price.field.${field}`), price: formatUsd(value) })];
  });
  return [
    ...(tokens.length > 0
      ? [t('price.summary.perMillion', { prices: tokens.join(t('price.summary.separator')) })]
      : []),
    ...unitTexts(price, t),
    ...(price.tiers ?? []).map((tier) => tierText(tier, t)),
  ];
}
