import { Card, Flex, List, Pagination, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PriceUnit } from '../../lib/price';
import { CapabilityBadge } from './capability-badge';
import { CatalogueMultiplier, CataloguePrice } from './catalogue-price';
import type { CatalogueRow } from './catalogue-types';
import { ProviderLabel } from './provider-logo';

const PAGE_SIZE = 10;

/**
 * The catalogue on a phone: one card per model, name, vendor, capability and every price line in full width
 * (a table at 375 px put the price column off-screen, issue 33 point 2).
 */
export function CatalogueCards({ rows, unit, loading }: { rows: CatalogueRow[]; unit: PriceUnit; loading: boolean }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const pages = Math.max(1, Math.ceil(rows.length / PAGE_SIZE));
  const current = Math.min(page, pages);
  const shown = rows.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE);
  return (
    <Flex vertical gap={12} data-testid="catalogue-cards">
      <List
        loading={loading}
        dataSource={shown}
        locale={{ emptyText: t('about.empty') }}
        aria-label={t('about.cards')}
        renderItem={(row) => (
          <List.Item key={row.key} style={{ padding: '6px 0' }}>
            <Card size="small" style={{ width: '100%' }} data-testid="catalogue-card">
              <Flex vertical gap={6}>
                <Typography.Text
                  copyable={{ text: row.name }}
                  strong
                  style={{ wordBreak: 'break-all' }}
                  data-testid="catalogue-card-name"
                >
                  {row.name}
                </Typography.Text>
                <Flex wrap gap={8} align="center">
                  {row.manufacturer ? (
                    <ProviderLabel provider={row.manufacturer} />
                  ) : (
                    <Typography.Text type="secondary">{t('common.unknown')}</Typography.Text>
                  )}
                  <CapabilityBadge capability={row.power} />
                </Flex>
                <CataloguePrice pricing={row.pricing} unit={unit} />
                <CatalogueMultiplier pricing={row.pricing} />
              </Flex>
            </Card>
          </List.Item>
        )}
      />
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Typography.Text type="secondary">{t('about.total', { count: rows.length })}</Typography.Text>
        <Pagination simple current={current} pageSize={PAGE_SIZE} total={rows.length} onChange={setPage} />
      </Flex>
    </Flex>
  );
}
