import type { EffectivePrice, ListPrice, PriceSource } from '@modelgate/wire';
import { Button, Flex, Popconfirm, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { formatUsd } from '../../../lib/price';
import { channelTypeColor, isKnownChannelType } from '../../channel/channel-types';
import { TOKEN_FIELDS } from './price-form-values';
import { tierText, unitTexts } from './price-summary';

const SOURCE_COLORS: Record<PriceSource, string> = {
  admin: 'blue',
  ratio: 'orange',
  catalogue: 'green',
  default: 'purple',
  missing: 'red',
};

export const SourceTag = ({ source, t }: { source: PriceSource; t: TFunction }) => (
  <Tag color={SOURCE_COLORS[source]}>{t(`price.source.${source}`)}</Tag>
);

/**
 * The price a row charges in dollars: its list price, or a ratio turned into dollars at the current quota per
 * dollar (one-api's ratio 1 is 1 quota per token).
 */
export function dollarsOf(row: EffectivePrice, quotaPerUnit: number): ListPrice | null {
  if (row.price) return row.price;
  if (!row.ratio) return null;
  const input = (row.ratio.model_ratio * 1_000_000) / quotaPerUnit;
  return { input, output: input * row.ratio.completion_ratio };
}

/** Short lines, one under the other; each line stays whole where it can and wraps only when it must. */
const lines = (texts: string[], none: string) =>
  texts.length === 0 ? (
    <Typography.Text type="secondary">{none}</Typography.Text>
  ) : (
    <div>
      {texts.map((text) => (
        <div key={text}>{text}</div>
      ))}
    </div>
  );

export interface PriceRowActions {
  edit: (row: EffectivePrice) => void;
  remove: (row: EffectivePrice) => void;
}

/** The token prices of a row that are set, one '输入 $3' line each (US$ per 1M tokens; a ratio in dollars). */
function tokenLines(row: EffectivePrice, quotaPerUnit: number, t: TFunction): string[] {
  const price = dollarsOf(row, quotaPerUnit);
  if (!price) return [];
  return TOKEN_FIELDS.flatMap((field) => {
    const value = price[field];
    return value === undefined
      ? []
      : [t('price.summary.amount', { name: t(`price.field.${field}`), price: formatUsd(value) })];
  });
}

/** Where a row's price comes from, in words: the ratios, the admin's note or the price list's reference. */
const referenceOf = (row: EffectivePrice, t: TFunction): string =>
  row.ratio
    ? t('price.ratio', { model: row.ratio.model_ratio, completion: row.ratio.completion_ratio })
    : row.note || row.reference;

/**
 * The price table's columns, few enough to fit a 1440 px screen with nothing hidden or scrolled (issue 33 point
 * 2): the model with its channel type and group, the source with its reference, the token prices per 1M
 * tokens, the per-call and per-unit prices, the context tiers, and the actions.
 */
export function priceColumns(
  t: TFunction,
  quotaPerUnit: number,
  actions: PriceRowActions,
): ColumnsType<EffectivePrice> {
  const none = t('price.none');
  return [
    {
      title: t('price.column.model'),
      dataIndex: 'model',
      render: (model: string, row) => (
        <Flex vertical gap={4} align="flex-start">
          <Typography.Text strong copyable={{ text: model }} style={{ wordBreak: 'break-all' }}>
            {model}
          </Typography.Text>
          <Flex gap={4} wrap>
            {row.channel_type === null ? (
              <Typography.Text type="secondary">{t('price.anyChannelType')}</Typography.Text>
            ) : (
              <Tag color={channelTypeColor(row.channel_type)}>
                {isKnownChannelType(row.channel_type)
                  ? t(`channel.type.${row.channel_type}`)
                  : `${t('common.unknown')} (${row.channel_type})`}
              </Tag>
            )}
            {row.group ? (
              <Tag>{row.group}</Tag>
            ) : (
              <Typography.Text type="secondary">{t('price.allGroups')}</Typography.Text>
            )}
          </Flex>
        </Flex>
      ),
    },
    {
      title: t('price.column.source'),
      dataIndex: 'source',
      render: (source: PriceSource, row) => (
        <Flex vertical gap={4} align="flex-start">
          <SourceTag source={source} t={t} />
          {referenceOf(row, t) && (
            <Typography.Text type="secondary" style={{ overflowWrap: 'anywhere' }}>
              {referenceOf(row, t)}
            </Typography.Text>
          )}
        </Flex>
      ),
    },
    {
      title: t('price.column.perToken'),
      key: 'tokens',
      render: (_value, row) => lines(tokenLines(row, quotaPerUnit, t), none),
    },
    {
      title: t('price.column.units'),
      key: 'units',
      render: (_value, row) => lines(row.price ? unitTexts(row.price, t) : [], none),
    },
    {
      title: t('price.column.tiers'),
      key: 'tiers',
      render: (_value, row) =>
        lines(
          (row.price?.tiers ?? []).map((tier) => tierText(tier, t)),
          none,
        ),
    },
    {
      title: t('price.column.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_value, row) => (
        <Flex gap={4} wrap>
          <Button size="small" onClick={() => actions.edit(row)}>
            {t('price.action.edit')}
          </Button>
          {row.source === 'admin' && (
            <Popconfirm title={t('price.confirm.delete', { model: row.model })} onConfirm={() => actions.remove(row)}>
              <Button size="small" danger>
                {t('price.action.delete')}
              </Button>
            </Popconfirm>
          )}
        </Flex>
      ),
    },
  ];
}
