import { AppstoreOutlined, SearchOutlined } from '@ant-design/icons';
import { Avatar, Card, Flex, Input, Rate, Segmented, Select, Table, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWindowWidth } from '../../hooks/use-media';
import { NARROW_SCREEN_PX } from '../../lib/menu';
import type { PriceUnit } from '../../lib/price';
import { CapabilityBadge } from './capability-badge';
import { CatalogueMultiplier, CataloguePrice } from './catalogue-price';
import { filterCatalogue, INITIAL_FILTER, providersOf, type CatalogueFilter } from './catalogue-filter';
import { CatalogueCards } from './catalogue-cards';
import { CAPABILITY_FILTER_OPTIONS, MAX_POPULARITY, type CatalogueRow, type Provider } from './catalogue-types';
import { ProviderLabel, ProviderMark } from './provider-logo';

export interface ModelCatalogueProps {
  /** The models the server offers the caller, with their prices. */
  rows: CatalogueRow[];
  loading: boolean;
}

/** The catalogue table with its search, capability, popularity, provider and price-unit controls. */
export function ModelCatalogue({ rows: all, loading }: ModelCatalogueProps) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<CatalogueFilter>(INITIAL_FILTER);
  const update = (patch: Partial<CatalogueFilter>) => setFilter((current) => ({ ...current, ...patch }));
  const rows = useMemo(() => filterCatalogue(all, filter), [all, filter]);
  // Only vendors with a model: a chip that selects nothing is noise (issue 33 point 2).
  const providers = useMemo(() => providersOf(all), [all]);
  const unknown = t('common.unknown');
  const narrow = useWindowWidth() <= NARROW_SCREEN_PX;

  const columns: TableColumnsType<CatalogueRow> = [
    {
      title: t('about.column.name'),
      dataIndex: 'name',
      fixed: 'left',
      width: 180,
      render: (name: string) => (
        <Typography.Text copyable={{ text: name }} strong style={{ wordBreak: 'break-all' }}>
          {name}
        </Typography.Text>
      ),
    },
    // The price comes right after the name, so a narrower window hides the least useful columns first.
    {
      title: t('about.column.price'),
      key: 'price',
      width: 230,
      render: (_value, row) => <CataloguePrice pricing={row.pricing} unit={filter.unit} />,
    },
    {
      title: t('about.column.provider'),
      dataIndex: 'manufacturer',
      width: 160,
      render: (provider: Provider | null) => (provider ? <ProviderLabel provider={provider} /> : unknown),
    },
    {
      title: t('about.column.capability'),
      dataIndex: 'power',
      width: 170,
      render: (_value, entry) => <CapabilityBadge capability={entry.power} />,
    },
    {
      title: t('about.column.popularity'),
      dataIndex: 'popularity',
      width: 130,
      render: (value: number | undefined) => (
        <Rate disabled count={MAX_POPULARITY} value={value ?? MAX_POPULARITY} style={{ fontSize: 12 }} />
      ),
    },
    {
      title: t('about.column.multiplier'),
      key: 'multiplier',
      width: 170,
      render: (_value, row) => <CatalogueMultiplier pricing={row.pricing} />,
    },
    {
      title: t('about.column.intro'),
      dataIndex: 'intro',
      width: undefined,
      render: (intro: string | undefined) =>
        intro ? (
          <Typography.Text>{t(`about.intro.${intro}`)}</Typography.Text>
        ) : (
          <Typography.Text type="secondary">{t('about.noIntro')}</Typography.Text>
        ),
    },
  ];

  return (
    <Card>
      <Flex vertical gap={16}>
        <Flex wrap gap={12}>
          <Input
            allowClear
            prefix={<SearchOutlined />}
            placeholder={t('about.filter.search')}
            aria-label={t('about.filter.search')}
            value={filter.name}
            onChange={(event) => update({ name: event.target.value })}
            style={{ width: 240, maxWidth: '100%' }}
            data-testid="catalogue-search"
          />
          <Select<CatalogueFilter['capability']>
            value={filter.capability}
            onChange={(capability) => update({ capability })}
            style={{ width: 190 }}
            aria-label={t('about.filter.capability')}
            data-testid="catalogue-capability"
            options={[
              { value: 'all', label: t('about.filter.allCapabilities') },
              ...CAPABILITY_FILTER_OPTIONS.map((capability) => ({
                value: capability,
                label: t(`about.capability.${capability}`),
              })),
            ]}
          />
          <Select<CatalogueFilter['popularity']>
            value={filter.popularity}
            onChange={(popularity) => update({ popularity })}
            style={{ width: 150 }}
            aria-label={t('about.filter.popularity')}
            data-testid="catalogue-popularity"
            options={[
              { value: 'all', label: t('about.filter.allPopularity') },
              ...[1, 2, 3, 4, 5].map((stars) => ({ value: stars, label: t('about.filter.stars', { count: stars }) })),
            ]}
          />
          <Segmented<PriceUnit>
            value={filter.unit}
            onChange={(unit) => update({ unit })}
            options={[
              { value: '1K', label: t('about.filter.per1K') },
              { value: '1M', label: t('about.filter.per1M') },
            ]}
            data-testid="catalogue-unit"
          />
        </Flex>
        <Flex gap={8} className="provider-strip" role="group" aria-label={t('about.filter.provider')}>
          <Tag.CheckableTag
            checked={filter.provider === 'all'}
            onChange={() => update({ provider: 'all' })}
            data-testid="provider-all"
          >
            <Flex align="center" gap={6}>
              <Avatar size={24} icon={<AppstoreOutlined />} />
              {t('about.filter.allProviders')}
            </Flex>
          </Tag.CheckableTag>
          {providers.map((provider) => (
            <Tag.CheckableTag
              key={provider}
              checked={filter.provider === provider}
              onChange={() => update({ provider })}
              data-testid={`provider-${provider}`}
            >
              <Flex align="center" gap={6}>
                <ProviderMark provider={provider} />
                {t(`about.provider.${provider}`)}
              </Flex>
            </Tag.CheckableTag>
          ))}
        </Flex>
        {narrow ? (
          <CatalogueCards rows={rows} unit={filter.unit} loading={loading} />
        ) : (
          <Table<CatalogueRow>
            rowKey="key"
            size="middle"
            loading={loading}
            columns={columns}
            dataSource={rows}
            scroll={{ x: 1150 }}
            pagination={{
              defaultPageSize: 20,
              showSizeChanger: true,
              showTotal: (total) => t('about.total', { count: total }),
            }}
            locale={{ emptyText: t('about.empty') }}
          />
        )}
      </Flex>
    </Card>
  );
}
