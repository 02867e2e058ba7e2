import { Button, Popconfirm, Space } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { deleteRedemption, setRedemptionStatus, type Redemption } from '../../api/redemption';
import type { RowWriter } from '../../hooks/use-row-write';
import { copyText } from '../../lib/clipboard';
import { notify } from '../../lib/notify';
import { formatTimestamp } from '../../lib/time';
import { sortedColumns } from '../shared/sorted-columns';
import { RedemptionStatusTag } from './redemption-status-tag';

export interface RedemptionColumnContext {
  t: TFunction;
  renderQuota: (quota: number) => string;
  writeRow: RowWriter<Redemption>;
  onEdit: (id: number) => void;
  onCopyFailed: (text: string) => void;
}

/** Columns of the redemption table, with copy, delete, enable/disable and edit. */
export function redemptionColumns({
  t,
  renderQuota,
  writeRow,
  onEdit,
  onCopyFailed,
}: RedemptionColumnContext): ColumnsType<Redemption> {
  const time = (seconds: number) =>
    seconds ? (formatTimestamp(seconds) ?? t('common.invalidTime')) : t('redemption.notYet');
  const act = (id: number, write: () => Promise<Partial<Redemption> | null>) =>
    writeRow(id, async () => {
      const change = await write();
      notify.success(t('redemption.toast.success'));
      return change;
    });
  const copy = async (key: string) => {
    if (await copyText(key)) notify.success(t('redemption.toast.copied'));
    else {
      notify.warning(t('common.copyFailed'));
      onCopyFailed(key);
    }
  };
  const sorted = sortedColumns<Redemption>();
  return [
    sorted.number(t('redemption.column.id'), 'id'),
    sorted.text(t('redemption.column.name'), 'name'),
    sorted.number(t('redemption.column.status'), 'status', (status) => <RedemptionStatusTag status={status} />),
    sorted.number(t('redemption.column.quota'), 'quota', (quota) => renderQuota(quota)),
    sorted.number(t('redemption.column.createdTime'), 'created_time', time),
    sorted.number(t('redemption.column.redeemedTime'), 'redeemed_time', time),
    {
      title: t('redemption.column.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => (
        <Space size={4} wrap>
          <Button size="small" type="primary" onClick={() => void copy(row.key)}>
            {t('redemption.action.copy')}
          </Button>
          <Popconfirm
            title={t('redemption.confirm.delete', { name: row.name })}
            onConfirm={() =>
              act(row.id, async () => {
                await deleteRedemption(row.id);
                return null;
              })
            }
          >
            <Button size="small" danger>
              {t('redemption.action.delete')}
            </Button>
          </Popconfirm>
          <Button
            size="small"
            disabled={row.status === 3}
            onClick={() =>
              act(row.id, async () => {
                const next = row.status === 1 ? 2 : 1;
                await setRedemptionStatus(row.id, next);
                return { status: next };
              })
            }
          >
            {row.status === 1 ? t('redemption.action.disable') : t('redemption.action.enable')}
          </Button>
          <Button size="small" onClick={() => onEdit(row.id)}>
            {t('redemption.action.edit')}
          </Button>
        </Space>
      ),
    },
  ];
}
