import { Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import type { LogEntry } from '../../api/log';
import { translateLogContent } from '../../lib/log-content';
import { receiptOf } from '../../lib/receipt';
import { formatTimestamp } from '../../lib/time';
import { utcZoneLabel } from './log-zone';
import { LogTypeTag } from './log-type-tag';
import { ReceiptPopover } from './receipt-popover';

/**
 * Columns of the log table; channel and username only for admins; details in the console's language; the quota
 * of a consume log with a receipt opens it.
 */
export function logColumns(
  t: TFunction,
  admin: boolean,
  renderQuota: (quota: number) => string,
  language: string,
): ColumnsType<LogEntry> {
  const columns: ColumnsType<LogEntry> = [
    {
      title: t('log.column.timeZone', { zone: utcZoneLabel() }),
      dataIndex: 'created_at',
      render: (seconds: number) => formatTimestamp(seconds) ?? t('common.invalidTime'),
    },
  ];
  if (admin) {
    columns.push(
      { title: t('log.column.channel'), dataIndex: 'channel', render: (id: number) => (id ? <Tag>{id}</Tag> : '') },
      {
        title: t('log.column.username'),
        dataIndex: 'username',
        render: (name: string) => (name ? <Tag>{name}</Tag> : ''),
      },
    );
  }
  columns.push(
    {
      title: t('log.column.tokenName'),
      dataIndex: 'token_name',
      render: (name: string) => (name ? <Tag>{name}</Tag> : ''),
    },
    { title: t('log.column.type'), dataIndex: 'type', render: (type: number) => <LogTypeTag type={type} /> },
    {
      title: t('log.column.model'),
      dataIndex: 'model_name',
      render: (name: string) => (name ? <Tag>{name}</Tag> : ''),
    },
    { title: t('log.column.promptTokens'), dataIndex: 'prompt_tokens', render: (count: number) => count || '' },
    { title: t('log.column.completionTokens'), dataIndex: 'completion_tokens', render: (count: number) => count || '' },
    {
      title: t('log.column.quota'),
      dataIndex: 'quota',
      render: (quota: number, row) => {
        const text = quota ? renderQuota(quota) : '';
        const receipt = receiptOf(row.other);
        return receipt ? <ReceiptPopover receipt={receipt} text={text || '0'} /> : text;
      },
    },
    {
      title: t('log.column.content'),
      dataIndex: 'content',
      render: (content: string) => (
        <Typography.Paragraph style={{ margin: 0, maxWidth: 420 }} ellipsis={{ rows: 2, expandable: true }}>
          {translateLogContent(content, t, language)}
        </Typography.Paragraph>
      ),
    },
  );
  return columns;
}
