import { ReloadOutlined } from '@ant-design/icons';
import type { EffectivePrice, PriceSource } from '@modelgate/wire';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Flex, Input, Select, Skeleton, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteModelPrice, fetchEffectivePrices } from '../../../api/price';
import { ServerTable } from '../../../components/server-list/server-list';
import { useQuotaDisplay } from '../../../hooks/use-quota';
import { notify } from '../../../lib/notify';
import { queryKeys } from '../../../lib/query-keys';
import { useOptions } from '../operation/use-options';
import { DefaultPrice } from './default-price';
import { dollarsOf, priceColumns } from './price-columns';
import { PriceFormModal, type PriceDraft } from './price-form-modal';
import { PriceImportModal } from './price-import-modal';
import { adminKeyOf, filterPrices, priceRowKey, type PriceFilter } from './price-rows';

const SOURCES: PriceSource[] = ['admin', 'ratio', 'catalogue', 'default', 'missing'];

/**
 * Model prices (operation settings, admin; loaded on demand with its texts): every effective price with its
 * source, searchable and paged; an admin's price added, edited or deleted; a models.dev file imported after a
 * preview; the default price of unknown models.
 */
export default function PriceSetting() {
  const { t } = useTranslation();
  const options = useOptions();
  const { quotaPerUnit } = useQuotaDisplay();
  const queryClient = useQueryClient();
  const prices = useQuery({ queryKey: queryKeys.read('price', 'effective'), queryFn: fetchEffectivePrices });
  const [filter, setFilter] = useState<PriceFilter>({ model: '', source: 'all' });
  const [draft, setDraft] = useState<PriceDraft | null>(null);
  const [importing, setImporting] = useState(false);
  const rows = useMemo(() => prices.data ?? [], [prices.data]);
  const shown = useMemo(() => filterPrices(rows, filter), [rows, filter]);

  const removing = useMutation({
    mutationFn: (row: EffectivePrice) => deleteModelPrice(adminKeyOf(row, rows), row.group),
    onSuccess: () => notify.success(t('price.toast.deleted')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.all('price') }),
  });

  const remove = removing.mutate;
  const columns = useMemo(
    () =>
      priceColumns(t, quotaPerUnit, {
        edit: (row) =>
          setDraft(
            row.source === 'admin'
              ? { model: adminKeyOf(row, rows), group: row.group, price: row.price, note: row.note, existing: true }
              : { model: row.model, group: row.group, price: dollarsOf(row, quotaPerUnit), note: '', existing: false },
          ),
        remove,
      }),
    [t, quotaPerUnit, rows, remove],
  );

  return (
    <>
      <Card title={t('price.title')} style={{ marginBottom: 16 }} data-testid="price-setting">
        <Typography.Paragraph type="secondary">{t('price.intro')}</Typography.Paragraph>
        <Flex gap={8} wrap style={{ marginBottom: 12 }}>
          <Input.Search
            allowClear
            placeholder={t('price.search')}
            aria-label={t('price.search')}
            value={filter.model}
            onChange={(event) => setFilter((current) => ({ ...current, model: event.target.value }))}
            style={{ width: 240, maxWidth: '100%' }}
          />
          <Select<PriceSource | 'all'>
            value={filter.source}
            onChange={(source) => setFilter((current) => ({ ...current, source }))}
            aria-label={t('price.filter.source')}
            style={{ width: 150 }}
            options={[
              { value: 'all', label: t('price.filter.allSources') },
              ...SOURCES.map((source) => ({ value: source, label: t(`price.source.${source}`) })),
            ]}
          />
          <Button
            type="primary"
            onClick={() => setDraft({ model: '', group: '', price: null, note: '', existing: false })}
          >
            {t('price.add')}
          </Button>
          <Button onClick={() => setImporting(true)}>{t('price.import')}</Button>
          <Button icon={<ReloadOutlined />} onClick={() => void prices.refetch()} aria-label={t('price.refresh')} />
        </Flex>
        <ServerTable<EffectivePrice>
          rowKey={priceRowKey}
          loading={prices.isFetching}
          columns={columns}
          dataSource={shown}
          locale={{ emptyText: t('price.empty') }}
          // Fits the card's width (lines wrap), so no column hides behind a sideways scroll at 1440 px.
          scroll={undefined}
          pagination={{
            pageSize: 20,
            showSizeChanger: false,
            showTotal: (total) => t('price.total', { count: total }),
          }}
        />
      </Card>
      {options ? <DefaultPrice options={options} /> : <Skeleton active />}
      <PriceFormModal draft={draft} onClose={() => setDraft(null)} />
      <PriceImportModal open={importing} onClose={() => setImporting(false)} />
    </>
  );
}
