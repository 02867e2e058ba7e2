import { DownloadOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { Alert, Button, Col, DatePicker, Flex, Form, Input, Row, Select, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  auditExportUrl,
  fetchAuditPage,
  verifyAuditChain,
  type AuditChainCheck,
  type AuditEntry,
  type AuditFilters,
} from '../../api/audit';
import { PageHeading } from '../../components/page-heading/page-heading';
import { formatTimestamp } from '../../lib/time';
import { downloadCsv, saveBlob } from '../log/log-download';
import { auditChanges, shortValue } from './audit-diff';

const PAGE_SIZE = 20;
const TARGET_TYPES = ['user', 'channel', 'option', 'price', 'redemption', 'log'] as const;
/** Changes shown in a row before the rest fold into a count. */
const SHOWN_CHANGES = 6;

/** An entry's before → after as one line per changed field. */
function ChangeList({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  const changes = auditChanges(entry.before, entry.after);
  if (changes.length === 0) return <Typography.Text type="secondary">{t('audit.noChange')}</Typography.Text>;
  return (
    <Flex vertical gap={2} data-testid="audit-changes">
      {changes.slice(0, SHOWN_CHANGES).map(({ field, before, after }) => (
        <Typography.Text key={field} style={{ fontSize: 12 }}>
          {field && <Typography.Text strong>{field}: </Typography.Text>}
          <Typography.Text delete type="secondary">
            {shortValue(before)}
          </Typography.Text>
          {' → '}
          <Typography.Text code>{shortValue(after)}</Typography.Text>
        </Typography.Text>
      ))}
      {changes.length > SHOWN_CHANGES && (
        <Typography.Text type="secondary">
          {t('audit.moreChanges', { count: changes.length - SHOWN_CHANGES })}
        </Typography.Text>
      )}
    </Flex>
  );
}

/** The audit trail of admin writes (/audit, admins): filters, the entries, CSV, and a check of the hash chain. */
export default function AuditPage() {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<AuditFilters>({});
  const [filters, setFilters] = useState<AuditFilters>({});
  const [page, setPage] = useState(0);
  const [data, setData] = useState<{ items: AuditEntry[]; total: number }>({ items: [], total: 0 });
  const [loading, setLoading] = useState(false);
  const [check, setCheck] = useState<AuditChainCheck | null>(null);
  const [checking, setChecking] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      setData(await fetchAuditPage(filters, page, PAGE_SIZE));
    } finally {
      setLoading(false);
    }
  }, [filters, page]);
  useEffect(() => {
    void load();
  }, [load]);

  async function verify() {
    setChecking(true);
    try {
      setCheck(await verifyAuditChain());
    } finally {
      setChecking(false);
    }
  }

  async function exportCsv() {
    setExporting(true);
    setExportError(null);
    try {
      const { blob, fileName } = await downloadCsv(auditExportUrl(filters), () => undefined);
      saveBlob(blob, fileName);
    } catch (failure) {
      setExportError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setExporting(false);
    }
  }

  const set = <K extends keyof AuditFilters>(key: K, value: AuditFilters[K]) => setDraft({ ...draft, [key]: value });
  const column = { xs: 24, sm: 12, lg: 6 };
  const columns: ColumnsType<AuditEntry> = [
    {
      title: t('audit.column.time'),
      dataIndex: 'created_at',
      width: 170,
      render: (value: number) => formatTimestamp(value),
    },
    {
      title: t('audit.column.actor'),
      dataIndex: 'actor_name',
      render: (_, entry) => (
        <Flex vertical>
          <span>{entry.actor_name}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {entry.ip}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('audit.column.action'),
      dataIndex: 'action',
      render: (value: string) => <Typography.Text code>{value}</Typography.Text>,
    },
    {
      title: t('audit.column.target'),
      dataIndex: 'target_id',
      render: (_, entry) =>
        `${t(`audit.target.${entry.target_type}`, { defaultValue: entry.target_type })} ${entry.target_id}`,
    },
    { title: t('audit.column.changes'), key: 'changes', render: (_, entry) => <ChangeList entry={entry} /> },
  ];

  return (
    <>
      <PageHeading title={t('audit.title')} />
      <Form
        layout="vertical"
        onFinish={() => {
          setPage(0);
          setFilters(draft);
        }}
      >
        <Row gutter={12}>
          <Col {...column}>
            <Form.Item label={t('audit.filter.actor')}>
              <Input
                aria-label={t('audit.filter.actor')}
                value={draft.actor}
                onChange={(event) => set('actor', event.target.value)}
                allowClear
              />
            </Form.Item>
          </Col>
          <Col {...column}>
            <Form.Item label={t('audit.filter.action')}>
              <Input
                aria-label={t('audit.filter.action')}
                placeholder={t('audit.filter.actionPlaceholder')}
                value={draft.action}
                onChange={(event) => set('action', event.target.value.trim())}
                allowClear
              />
            </Form.Item>
          </Col>
          <Col {...column}>
            <Form.Item label={t('audit.filter.targetType')}>
              <Select
                aria-label={t('audit.filter.targetType')}
                allowClear
                value={draft.target_type}
                onChange={(value?: string) => set('target_type', value)}
                options={TARGET_TYPES.map((type) => ({ value: type, label: t(`audit.target.${type}`) }))}
              />
            </Form.Item>
          </Col>
          <Col {...column}>
            <Form.Item label={t('audit.filter.time')}>
              <DatePicker.RangePicker
                showTime
                style={{ width: '100%' }}
                onChange={(range) => {
                  setDraft({ ...draft, start_timestamp: range?.[0]?.unix(), end_timestamp: range?.[1]?.unix() });
                }}
              />
            </Form.Item>
          </Col>
        </Row>
        <Flex gap={8} wrap style={{ marginBottom: 12 }}>
          <Button type="primary" htmlType="submit">
            {t('audit.filter.apply')}
          </Button>
          <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportCsv()}>
            {t('audit.export')}
          </Button>
          <Button icon={<SafetyCertificateOutlined />} loading={checking} onClick={() => void verify()}>
            {t('audit.verify.button')}
          </Button>
        </Flex>
      </Form>
      {check && (
        <Alert
          data-testid="audit-verify-result"
          style={{ marginBottom: 12 }}
          type={check.ok ? 'success' : 'error'}
          showIcon
          closable
          onClose={() => setCheck(null)}
          message={
            check.ok
              ? t('audit.verify.ok', { count: check.checked })
              : check.first_bad_id === null
                ? t('audit.verify.tail', { count: check.checked })
                : t('audit.verify.bad', { id: check.first_bad_id, count: check.checked })
          }
        />
      )}
      {exportError && (
        <Alert type="error" showIcon message={exportError} closable onClose={() => setExportError(null)} />
      )}
      {/* The wide table scrolls on a phone: the region takes the focus so a keyboard can scroll it too. */}
      <div tabIndex={0} role="region" aria-label={t('audit.title')} style={{ overflowX: 'auto' }}>
        <Table<AuditEntry>
          rowKey="id"
          size="small"
          loading={loading}
          columns={columns}
          dataSource={data.items}
          pagination={{
            current: page + 1,
            pageSize: PAGE_SIZE,
            total: data.total,
            showSizeChanger: false,
            showTotal: (total) => t('audit.total', { count: total }),
            onChange: (next) => setPage(next - 1),
          }}
        />
      </div>
    </>
  );
}
