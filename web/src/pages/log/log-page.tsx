import { Card, Flex, Skeleton, Statistic, Typography } from 'antd';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../components/page-heading/page-heading';
import { ServerTable } from '../../components/server-list/server-list';
import { useRenderQuota } from '../../hooks/use-quota';
import { isAdmin } from '../../lib/roles';
import { useUser } from '../../stores/user.store';
import { logColumns } from './log-columns';
import { LogExportButton } from './log-export-button';
import { LogFilterBar } from './log-filters';
import { LogPager } from './log-pager';
import { defaultLogFilters, rememberedHideTest, rememberHideTest } from './log-range';
import { useLogData, type AppliedLogFilters } from './use-log-data';

const UsageChart = lazy(() => import('./usage-chart'));

/** Usage logs (/log): filters, consumption figure, usage chart by model, paged table. */
export default function LogPage() {
  const { t, i18n } = useTranslation();
  const admin = isAdmin(useUser());
  const renderQuota = useRenderQuota();
  const [defaults] = useState(() => defaultLogFilters(Date.now(), rememberedHideTest()));
  const [draft, setDraft] = useState(defaults);
  const [applied, setApplied] = useState<AppliedLogFilters>({ filters: draft, run: 0 });
  const data = useLogData(applied, admin);
  const language = i18n.resolvedLanguage ?? i18n.language;
  const columns = useMemo(() => logColumns(t, admin, renderQuota, language), [t, admin, renderQuota, language]);

  return (
    <>
      <PageHeading title={t('log.title')} />
      <Card style={{ marginBottom: 12 }}>
        <LogFilterBar
          value={draft}
          defaults={defaults}
          admin={admin}
          onChange={setDraft}
          onApply={() => {
            rememberHideTest(draft.hide_test);
            setApplied(({ run }) => ({ filters: { ...draft }, run: run + 1 }));
          }}
        />
        <div style={{ marginTop: 12 }}>
          <LogExportButton filters={applied.filters} admin={admin} />
        </div>
      </Card>
      <Card style={{ marginBottom: 12 }}>
        <Flex gap={24} wrap style={{ marginBottom: 12 }}>
          <Statistic title={t('log.stat.quota')} value={data.stat === null ? '-' : renderQuota(data.stat)} />
        </Flex>
        <Typography.Text type="secondary">
          {data.series?.range.clipped
            ? t('log.chart.clipped', { granularity: t(`log.chart.${data.series.range.granularity}`) })
            : t('log.chart.title', { granularity: t(`log.chart.${data.series?.range.granularity ?? 'day'}`) })}
        </Typography.Text>
        {data.series ? (
          <Suspense fallback={<Skeleton active />}>
            <UsageChart
              points={data.series.points}
              granularity={data.series.range.granularity}
              renderQuota={renderQuota}
              emptyText={t('log.chart.empty')}
            />
          </Suspense>
        ) : (
          <Skeleton active />
        )}
      </Card>
      <ServerTable
        rowKey={(row) => `${row.id}-${row.created_at}-${row.request_id}-${row.content}`}
        loading={data.loading}
        columns={columns}
        dataSource={data.rows}
      />
      <div style={{ marginTop: 12 }}>
        <LogPager page={data.page} hasMore={data.hasMore} total={data.total} onPage={data.goTo} />
      </div>
    </>
  );
}
