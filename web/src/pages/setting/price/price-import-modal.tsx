import { UploadOutlined } from '@ant-design/icons';
import type { PriceImportPreview } from '@modelgate/wire';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Flex, Input, Modal, Segmented, Select, Table, Typography, Upload } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { applyPriceImport, previewPriceImport, type PriceFile } from '../../../api/price';
import { notify } from '../../../lib/notify';
import { formatUsd, tokensShort } from '../../../lib/price';
import { queryKeys } from '../../../lib/query-keys';
import { isRoot } from '../../../lib/roles';
import { useUser } from '../../../stores/user.store';
import { SourceTag } from './price-columns';
import { priceLines } from './price-summary';

type Change = PriceImportPreview['changes'][number];
type ClassChange = Change['classes'][number];

/** What the import does to each price class it touches: changed, added, kept from the price in force, dropped. */
function ClassChanges({ classes }: { classes: readonly ClassChange[] }) {
  const { t } = useTranslation();
  if (classes.length === 0) return null;
  const amount = (value: number | null) => (value === null ? t('price.none') : `$${formatUsd(value)}`);
  return (
    <ul style={{ margin: 0, paddingInlineStart: 16 }} aria-label={t('price.import.classes')}>
      {classes.map((entry) => (
        <li key={`${entry.above ?? ''}:${entry.class}`}>
          <Typography.Text
            type={entry.change === 'dropped' ? 'danger' : entry.change === 'kept' ? 'secondary' : undefined}
          >
            {t(`price.import.class.${entry.change}`, {
              name:
                entry.above === null
                  ? t(`price.field.${entry.class}`, { defaultValue: entry.class })
                  : t('price.import.tierClass', {
                      name: t(`price.field.${entry.class}`, { defaultValue: entry.class }),
                      tokens: tokensShort(entry.above),
                    }),
              before: amount(entry.before),
              after: amount(entry.after),
            })}
          </Typography.Text>
        </li>
      ))}
    </ul>
  );
}

/** The providers of a models.dev file: its top-level keys whose value holds a `models` object. */
export function providersOf(data: unknown): string[] | null {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return null;
  const providers = Object.entries(data)
    .filter(([, value]) => value && typeof value === 'object' && 'models' in value)
    .map(([name]) => name);
  return providers.length > 0 ? providers.sort() : null;
}

interface Loaded {
  name: string;
  data: Record<string, unknown>;
  providers: string[];
}

/**
 * Imports a models.dev price file: uploaded (or, for root, read on the server), its providers chosen, the
 * changes previewed (before → after with the current source, unchanged, conflicts, skipped and why), the
 * changes to apply chosen, then applied as admin prices.
 */
export function PriceImportModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const root = isRoot(useUser());
  const queryClient = useQueryClient();
  const [from, setFrom] = useState<'file' | 'path'>('file');
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [path, setPath] = useState('');
  const [providers, setProviders] = useState<string[]>([]);
  const [preview, setPreview] = useState<PriceImportPreview | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);

  const file = (): PriceFile | null =>
    from === 'file' ? loaded && { data: loaded.data } : path.trim() ? { path: path.trim() } : null;
  const choice = () => (providers.length > 0 ? { providers } : {});

  const previewing = useMutation({
    mutationFn: (source: PriceFile) => previewPriceImport(source, choice()),
    onSuccess: (answer) => {
      setPreview(answer);
      // A model no channel serves is not charged either way: left for the admin to pick.
      setChosen(answer.changes.filter((change) => change.served).map((change) => change.model));
    },
  });
  const applying = useMutation({
    mutationFn: (source: PriceFile) => applyPriceImport(source, { ...choice(), models: chosen }),
    onSuccess: (answer) => {
      notify.success(t('price.import.applied', { count: answer.applied }));
      setPreview(null);
      onClose();
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.all('price') }),
  });

  const read = async (upload: File) => {
    setPreview(null);
    try {
      const data: unknown = JSON.parse(await upload.text());
      const found = providersOf(data);
      if (!found) throw new Error('not a models.dev file');
      setLoaded({ name: upload.name, data: data as Record<string, unknown>, providers: found });
      setProviders([]);
    } catch {
      setLoaded(null);
      notify.error(t('price.import.badFile'));
    }
  };

  /** A price one line each (token prices, unit prices, each tier), so a cell grows down, not across. */
  const lines = (price: Change['before']) =>
    price ? priceLines(price, t).map((line) => <span key={line}>{line}</span>) : <span>{t('price.none')}</span>;
  const columns: ColumnsType<Change> = [
    {
      title: t('price.import.column.model'),
      key: 'model',
      width: '24%',
      render: (_value, change) => (
        <Flex vertical gap={2} align="start">
          <Typography.Text strong>{change.model}</Typography.Text>
          <Typography.Text type="secondary">
            {change.provider} · {t(change.served ? 'price.import.served' : 'price.import.notServed')}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('price.import.column.before'),
      key: 'before',
      width: '33%',
      render: (_value, change) => (
        <Flex vertical gap={2} align="start">
          <SourceTag source={change.before_source} t={t} />
          <Typography.Text type="secondary">
            <Flex vertical>{lines(change.before)}</Flex>
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('price.import.column.after'),
      key: 'after',
      render: (_value, change) => (
        <Flex vertical gap={4} align="start">
          <Flex vertical>{lines(change.after)}</Flex>
          <ClassChanges classes={change.classes} />
        </Flex>
      ),
    },
  ];

  const source = file();
  return (
    <Modal
      open={open}
      title={t('price.import.title')}
      onCancel={onClose}
      width={1120}
      footer={
        <Flex gap={8} justify="end" wrap>
          <Button onClick={onClose}>{t('price.import.close')}</Button>
          <Button disabled={!source} loading={previewing.isPending} onClick={() => source && previewing.mutate(source)}>
            {t('price.import.preview')}
          </Button>
          <Button
            type="primary"
            disabled={!source || !preview || chosen.length === 0}
            loading={applying.isPending}
            onClick={() => source && applying.mutate(source)}
          >
            {t('price.import.apply', { count: chosen.length })}
          </Button>
        </Flex>
      }
    >
      <Flex vertical gap={12}>
        {root && (
          <Segmented<'file' | 'path'>
            value={from}
            onChange={(value) => {
              setFrom(value);
              setPreview(null);
            }}
            options={[
              { value: 'file', label: t('price.import.fromFile') },
              { value: 'path', label: t('price.import.fromPath') },
            ]}
          />
        )}
        {from === 'file' ? (
          <Flex gap={12} align="center" wrap>
            <Upload
              accept=".json,application/json"
              showUploadList={false}
              beforeUpload={(upload) => {
                void read(upload);
                return false;
              }}
            >
              <Button icon={<UploadOutlined />}>{t('price.import.choose')}</Button>
            </Upload>
            {loaded && (
              <Typography.Text data-testid="price-import-file">
                {t('price.import.read', { name: loaded.name, count: loaded.providers.length })}
              </Typography.Text>
            )}
          </Flex>
        ) : (
          <label>
            <Typography.Text>{t('price.import.path')}</Typography.Text>
            <Input
              value={path}
              onChange={(event) => setPath(event.target.value)}
              placeholder="/srv/models.dev/api.json"
              aria-label={t('price.import.path')}
            />
            <Typography.Text type="secondary">{t('price.import.pathHint')}</Typography.Text>
          </label>
        )}
        <div>
          <Typography.Text>{t('price.import.providers')}</Typography.Text>
          <Select
            mode={from === 'file' ? 'multiple' : 'tags'}
            allowClear
            value={providers}
            onChange={(value) => {
              setProviders(value);
              setPreview(null);
            }}
            options={(loaded && from === 'file' ? loaded.providers : []).map((name) => ({ value: name, label: name }))}
            style={{ width: '100%' }}
            aria-label={t('price.import.providers')}
            data-testid="price-import-providers"
          />
          <Typography.Text type="secondary">{t('price.import.providersHint')}</Typography.Text>
        </div>
        {preview && (
          <Flex vertical gap={12} data-testid="price-import-preview">
            <Typography.Text strong>{t('price.import.changes', { count: preview.changes.length })}</Typography.Text>
            {preview.changes.length > 0 ? (
              <Table<Change>
                rowKey="model"
                size="small"
                columns={columns}
                dataSource={preview.changes}
                // Fixed columns that wrap: the after-column stays in view (no sideways scroll).
                tableLayout="fixed"
                pagination={{ pageSize: 10, showSizeChanger: false }}
                rowSelection={{
                  selectedRowKeys: chosen,
                  onChange: (keys) => setChosen(keys.map(String)),
                }}
              />
            ) : (
              <Alert type="info" showIcon title={t('price.import.noChanges')} />
            )}
            <Typography.Text type="secondary">
              {t('price.import.unchanged', { count: preview.unchanged })}
            </Typography.Text>
            {preview.conflicts.length > 0 && (
              <Alert
                type="warning"
                showIcon
                title={t('price.import.conflicts', { count: preview.conflicts.length })}
                description={
                  <Flex vertical gap={4}>
                    {preview.conflicts.map((conflict) => (
                      <span key={conflict.model}>
                        <Typography.Text strong>{conflict.model}</Typography.Text>
                        {t('price.import.conflictSides', {
                          sides: conflict.prices
                            .map((side) => `${side.provider}（${priceLines(side.price, t).join('；')}）`)
                            .join(t('price.import.conflictVersus')),
                        })}
                      </span>
                    ))}
                  </Flex>
                }
              />
            )}
            {preview.skipped.length > 0 && (
              <>
                <Typography.Text strong>{t('price.import.skipped', { count: preview.skipped.length })}</Typography.Text>
                <Table
                  rowKey={(row) => `${row.provider}/${row.model}`}
                  size="small"
                  dataSource={preview.skipped}
                  pagination={{ pageSize: 5, showSizeChanger: false }}
                  columns={[
                    { title: t('price.import.column.model'), dataIndex: 'model' },
                    { title: t('price.import.column.provider'), dataIndex: 'provider' },
                    { title: t('price.import.column.reason'), dataIndex: 'reason' },
                  ]}
                />
              </>
            )}
          </Flex>
        )}
      </Flex>
    </Modal>
  );
}
