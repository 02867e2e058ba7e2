import { Button, Popconfirm, Select, Space, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import type { Channel } from '../../api/channel';
import type { QuotaDisplayOptions } from '../../lib/quota';
import { formatTimestamp } from '../../lib/time';
import { sortedColumns } from '../shared/sorted-columns';
import { renderChannelBalance } from './channel-balance';
import { splitList } from './channel-form-values';
import { ChannelStatusTag } from './channel-status-tag';
import { channelTypeColor, isKnownChannelType } from './channel-types';
import type { ChannelActions } from './use-channel-actions';
import { InlineNumber } from './inline-number';
import { ResponseTimeTag } from './response-time-tag';

export interface ChannelColumnContext {
  t: TFunction;
  detail: boolean;
  quota: QuotaDisplayOptions;
  actions: ChannelActions;
  testModels: Record<number, string>;
  setTestModel: (id: number, model: string) => void;
  onEdit: (id: number) => void;
}

/** The test model of a row: the chosen one, else the first configured model. */
const testModelOf = (channel: Channel, chosen: Record<number, string>): string =>
  chosen[channel.id] ?? splitList(channel.models)[0] ?? '';

/** Columns of the channel table (spec section 2): balance and test model only in detail mode. */
export function channelColumns(context: ChannelColumnContext): ColumnsType<Channel> {
  const { t, detail, quota, actions, testModels } = context;
  const sorted = sortedColumns<Channel>();
  const columns: ColumnsType<Channel> = [
    { ...sorted.number(t('channel.column.id'), 'id'), width: 64 },
    sorted.text(
      t('channel.column.name'),
      'name',
      (name) => name || <Typography.Text type="secondary">{t('channel.none')}</Typography.Text>,
    ),
    sorted.text(t('channel.column.group'), 'group', (group) => (
      <Space size={4} wrap>
        {splitList(group || 'default').map((name) => (
          <Tag key={name}>{name}</Tag>
        ))}
      </Space>
    )),
    sorted.number(t('channel.column.type'), 'type', (type) => (
      <Tag color={channelTypeColor(type)}>
        {isKnownChannelType(type) ? t(`channel.type.${type}`) : t('common.unknown')}
      </Tag>
    )),
    sorted.number(t('channel.column.status'), 'status', (status) => <ChannelStatusTag status={status} />),
    sorted.number(t('channel.column.responseTime'), 'response_time', (value, channel) => (
      <ResponseTimeTag milliseconds={value} testTime={channel.test_time} />
    )),
  ];
  if (detail) {
    columns.push(
      sorted.number(t('channel.column.balance'), 'balance', (balance, channel) => {
        const shown = renderChannelBalance(channel.type, balance, quota);
        if (!shown.supported) return <Tag>{t('channel.balance.unsupported')}</Tag>;
        const updated = formatTimestamp(channel.balance_updated_time) ?? t('common.invalidTime');
        return (
          <Tooltip title={t('channel.balance.refreshHint', { time: updated })}>
            <Button size="small" onClick={() => actions.refreshBalance(channel)}>
              {shown.text}
            </Button>
          </Tooltip>
        );
      }),
    );
  }
  columns.push({
    title: t('channel.column.priority'),
    dataIndex: 'priority',
    sorter: (a, b) => (a.priority ?? 0) - (b.priority ?? 0),
    render: (priority: number | null, channel) => (
      <InlineNumber
        value={priority ?? 0}
        ariaLabel={t('channel.column.priority')}
        onSave={(value) => actions.setPriority(channel, value)}
      />
    ),
  });
  if (detail) {
    columns.push(
      {
        title: t('channel.column.weight'),
        dataIndex: 'weight',
        render: (weight: number | null, channel) => (
          <InlineNumber
            value={weight ?? 0}
            ariaLabel={t('channel.column.weight')}
            onSave={(value) => actions.setWeight(channel, value)}
          />
        ),
      },
      {
        title: t('channel.column.testModel'),
        key: 'test_model',
        render: (_, channel) => (
          <Select
            size="small"
            style={{ minWidth: 140 }}
            value={testModelOf(channel, testModels) || undefined}
            options={splitList(channel.models).map((model) => ({ value: model, label: model }))}
            onChange={(model: string) => context.setTestModel(channel.id, model)}
            aria-label={t('channel.column.testModel')}
          />
        ),
      },
    );
  }
  columns.push({
    title: t('channel.column.actions'),
    key: 'actions',
    fixed: 'right',
    render: (_, channel) => (
      <Space size={4} wrap>
        <Button size="small" onClick={() => actions.test(channel, testModelOf(channel, testModels))}>
          {t('channel.action.test')}
        </Button>
        <Popconfirm
          title={t('channel.confirm.delete', { name: channel.name })}
          onConfirm={() => actions.remove(channel)}
        >
          <Button size="small" danger>
            {t('channel.action.delete')}
          </Button>
        </Popconfirm>
        {channel.status === 1 ? (
          <Button size="small" onClick={() => actions.setStatus(channel, 2)}>
            {t('channel.action.disable')}
          </Button>
        ) : (
          <Button size="small" onClick={() => actions.setStatus(channel, 1)}>
            {t('channel.action.enable')}
          </Button>
        )}
        <Button size="small" onClick={() => context.onEdit(channel.id)}>
          {t('channel.action.edit')}
        </Button>
      </Space>
    ),
  });
  return columns;
}
