import type { EffectivePrice, ListPrice, PriceSource } from '@modelgate/wire';
import { Button, Flex, Popconfirm, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { formatUsd } from '../../../lib/price';
import { channelTypeColor, isKnownChannelType } from '../../channel/channel-types';
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

const lines = (texts: string[]) =>
  texts.length === 0 ? (
    ''
  ) : (
    <Flex vertical gap={2}>
      {texts.map((text) => (
        <Typography.Text key={text} style={{ whiteSpace: 'nowrap' }}>
          {text}
        </Typography.Text>
      ))}
    </Flex>
  );

export interface PriceRowActions {
  edit: (row: EffectivePrice) => void;
  remove: (row: EffectivePrice) => void;
}

/** The price table's columns: who, where from, each price per 1M tokens, unit prices, tiers, source, actions. */
export function priceColumns(
  t: TFunction,
  quotaPerUnit: number,
  actions: PriceRowActions,
): ColumnsType<EffectivePrice> {
  const none = t('price.none');
  const token =
    (field: 'input' | 'output' | 'cache_read' | 'cache_write' | 'cache_write_1h') => (row: EffectivePrice) => {
      const value = dollarsOf(row, quotaPerUnit)?.[field];
      return value === undefined ? none : formatUsd(value);
    };
  return [
    {
      title: t('price.column.model'),
      dataIndex: 'model',
      render: (model: string) => (
        <Typography.Text strong copyable={{ text: model }} style={{ wordBreak: 'break-all' }}>
          {model}
        </Typography.Text>
      ),
    },
    {
      title: t('price.column.channelType'),
      dataIndex: 'channel_type',
      render: (type: number | null) =>
        type === null ? (
          t('price.anyType')
        ) : (
          <Tag color={channelTypeColor(type)}>
            {isKnownChannelType(type) ? t(`channel.type.${type}`) : `${t('common.unknown')} (${type})`}
          </Tag>
        ),
    },
    {
      title: t('price.column.group'),
      dataIndex: 'group',
      render: (group: string) => (group ? <Tag>{group}</Tag> : t('price.allGroups')),
    },
    {
      title: t('price.column.source'),
      dataIndex: 'source',
      render: (source: PriceSource) => <SourceTag source={source} t={t} />,
    },
    { title: t('price.column.input'), key: 'input', render: (_value, row) => token('input')(row) },
    { title: t('price.column.output'), key: 'output', render: (_value, row) => token('output')(row) },
    { title: t('price.column.cacheRead'), key: 'cache_read', render: (_value, row) => token('cache_read')(row) },
    { title: t('price.column.cacheWrite'), key: 'cache_write', render: (_value, row) => token('cache_write')(row) },
    {
      title: t('price.column.cacheWrite1h'),
      key: 'cache_write_1h',
      render: (_value, row) => token('cache_write_1h')(row),
    },
    {
      title: t('price.column.units'),
      key: 'units',
      render: (_value, row) => lines(row.price ? unitTexts(row.price, t) : []),
    },
    {
      title: t('price.column.tiers'),
      key: 'tiers',
      render: (_value, row) => lines((row.price?.tiers ?? []).map((tier) => tierText(tier, t))),
    },
    {
      title: t('price.column.reference'),
      key: 'reference',
      render: (_value, row) =>
        row.ratio
          ? t('price.ratio', { model: row.ratio.model_ratio, completion: row.ratio.completion_ratio })
          : row.note || row.reference,
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
