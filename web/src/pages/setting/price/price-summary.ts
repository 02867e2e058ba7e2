import type { ListPrice, PriceTier, TokenPrices } from '@modelgate/wire';
import type { TFunction } from 'i18next';
import { formatUsd, tokensShort } from '../../../lib/price';
import { TOKEN_FIELDS, UNIT_FIELDS } from './price-form-values';

/** The token prices that are set, each as '输入 $3', joined. */
function tokenAmounts(prices: TokenPrices, t: TFunction): string {
  return TOKEN_FIELDS.flatMap((field) => {
    const value = prices[field];
    return value === undefined
      ? []
      : [t('price.summary.amount', { name: t(`price.field.${field}`), price: formatUsd(value) })];
  }).join(t('price.summary.separator'));
}

/** A tier in a line: '> 200K：输入 $6，输出 $22.5'. */
export const tierText = (tier: PriceTier, t: TFunction): string =>
  t('price.summary.tier', { tokens: tokensShort(tier.above), prices: tokenAmounts(tier, t) });

/** The per-call and per-unit prices of a price, one text each ('每次调用 $0.01'). */
export function unitTexts(price: ListPrice, t: TFunction): string[] {
  return UNIT_FIELDS.flatMap((field) => {
    const value = price[field];
    return value === undefined ? [] : [t(`price.unit.${field}`, { price: formatUsd(value) })];
  });
}

/** A whole price in short lines: the token prices per 1M tokens, the unit prices, then each tier. */
export function priceLines(price: ListPrice, t: TFunction): string[] {
  const tokens = tokenAmounts(price, t);
  return [
    ...(tokens ? [t('price.summary.perMillion', { prices: tokens })] : []),
    ...unitTexts(price, t),
    ...(price.tiers ?? []).map((tier) => tierText(tier, t)),
  ];
}
