import { useQuery } from '@tanstack/react-query';
import { Card, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchPricing } from '../../api/pricing';
import { fetchAbout } from '../../api/status';
import { MarkdownContent } from '../../components/html-content/markdown-content';
import { PageHeading } from '../../components/page-heading/page-heading';
import { queryKeys } from '../../lib/query-keys';
import { isFrameAddress } from '../../lib/sanitize';
import { useUser } from '../../stores/user.store';
import { catalogueRows } from './catalogue-filter';
import { CATALOGUE } from './catalogue.data';
import { ModelCatalogue } from './model-catalogue';

/** The admin's About text above the catalogue: Markdown (or HTML), or a page framed when it is an https:// address. */
function AboutText() {
  const { t } = useTranslation();
  // Optional: without an About text the catalogue stands alone.
  const { data: about } = useQuery({
    queryKey: queryKeys.read('home', 'about'),
    queryFn: fetchAbout,
    meta: { ignoreFailure: true },
  });
  if (!about?.trim()) return null;
  return (
    <Card style={{ marginBottom: 16 }} data-testid="about-text">
      {isFrameAddress(about) ? (
        <iframe src={about.trim()} title={t('about.frameTitle')} style={{ width: '100%', height: '60vh', border: 0 }} />
      ) : (
        <MarkdownContent markdown={about} />
      )}
    </Card>
  );
}

/**
 * The model list (/about): the About text, then the models the server offers with the prices it charges
 * (/api/pricing): to a signed-in user those of their group, to a visitor the default group's.
 */
export default function AboutPage() {
  const { t } = useTranslation();
  const user = useUser();
  const { data, isPending } = useQuery({
    // The caller's group decides the models and prices: read again when the user changes.
    queryKey: queryKeys.read('price', 'pricing', { user: user?.id ?? null }),
    queryFn: fetchPricing,
    meta: { failureMessage: 'about.loadFailed' },
  });
  const rows = useMemo(() => catalogueRows(CATALOGUE, data?.models ?? []), [data]);

  return (
    <>
      <PageHeading
        title={t('about.title')}
        extra={
          <Typography.Text type="secondary" data-testid="catalogue-count">
            {isPending ? '' : t('about.loadedCount', { count: rows.length })}
          </Typography.Text>
        }
      />
      <AboutText />
      <ModelCatalogue rows={isPending ? [] : rows} loading={isPending} />
    </>
  );
}
