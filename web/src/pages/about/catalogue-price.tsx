import { Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ModelPricing } from '../../api/pricing';
import { formatUsd, priceInUnit, tokensShort, type PriceUnit } from '../../lib/price';

/** A model's price in the chosen unit: input, output, cache, per-call and per-unit prices, context tiers. */
export function CataloguePrice({ pricing, unit }: { pricing: ModelPricing; unit: PriceUnit }) {
  const { t } = useTranslation();
  const { price } = pricing;
  if (!price) return <Tag>{t('about.price.unpriced')}</Tag>;
  const inUnit = (value: number) => t(`about.price.per${unit}`, { price: priceInUnit(value, unit) });
  const lines: Array<[string, string]> = [];
  const add = (key: string, text: string) => lines.push([key, text]);
  if (price.input !== undefined) add('input', t('about.price.input', { price: inUnit(price.input) }));
  if (price.output !== undefined) add('output', t('about.price.output', { price: inUnit(price.output) }));
  if (price.cache_read !== undefined) add('cacheRead', t('about.price.cacheRead', { price: inUnit(price.cache_read) }));
  if (price.cache_write !== undefined)
    add('cacheWrite', t('about.price.cacheWrite', { price: inUnit(price.cache_write) }));
  if (price.cache_write_1h !== undefined)
    add('cacheWrite1h', t('about.price.cacheWrite1h', { price: inUnit(price.cache_write_1h) }));
  const units = [
    ['per_call', 'perCall'],
    ['per_image', 'perImage'],
    ['per_audio_second', 'perAudioSecond'],
    ['per_web_search', 'perWebSearch'],
  ] as const;
  for (const [field, key] of units) {
    const value = price[field];
    if (value !== undefined) add(key, t(`about.price.${key}`, { price: formatUsd(value) }));
  }
  for (const tier of price.tiers ?? []) {
    const parts = [
      tier.input !== undefined ? t('about.price.input', { price: inUnit(tier.input) }) : null,
      tier.output !== undefined ? t('about.price.output', { price: inUnit(tier.output) }) : null,
    ].filter((part): part is string => part !== null);
    add(
      `tier-${tier.above}`,
      t('about.price.tier', { tokens: tokensShort(tier.above), prices: parts.join(t('about.price.separator')) }),
    );
  }
  return (
    <Flex vertical gap={2} data-testid="catalogue-price">
      {lines.map(([key, text], index) => (
        <Typography.Text key={key} type={index === 0 ? undefined : 'secondary'}>
          {text}
        </Typography.Text>
      ))}
      {pricing.varies && (
        <Typography.Text type="secondary" italic>
          {t('about.price.varies')}
        </Typography.Text>
      )}
    </Flex>
  );
}

/** one-api's multipliers of a ratio-priced model; a price in dollars says so; the group ratio when it is not 1. */
export function CatalogueMultiplier({ pricing }: { pricing: ModelPricing }) {
  const { t } = useTranslation();
  if (pricing.source === 'missing') return <Typography.Text type="secondary">{t('common.unknown')}</Typography.Text>;
  return (
    <Flex vertical gap={2}>
      {pricing.ratio ? (
        <>
          <Typography.Text>{t('about.multiplier.model', { value: pricing.ratio.model_ratio })}</Typography.Text>
          <Typography.Text type="secondary">
            {t('about.multiplier.completion', { value: pricing.ratio.completion_ratio })}
          </Typography.Text>
        </>
      ) : (
        <Typography.Text>{t('about.multiplier.listPrice')}</Typography.Text>
      )}
      {pricing.group_ratio !== 1 && (
        <Typography.Text type="secondary">
          {t('about.multiplier.group', { value: pricing.group_ratio })}
        </Typography.Text>
      )}
    </Flex>
  );
}
