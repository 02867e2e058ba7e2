import { useQuery } from '@tanstack/react-query';
import { Card, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { fetchAbout, fetchServedModels } from '../../api/status';
import { fetchAvailableModels } from '../../api/user';
import { MarkdownContent } from '../../components/html-content/markdown-content';
import { PageHeading } from '../../components/page-heading/page-heading';
import { notify } from '../../lib/notify';
import { queryKeys } from '../../lib/query-keys';
import { isFrameAddress } from '../../lib/sanitize';
import { useUser } from '../../stores/user.store';
import { availableEntries } from './catalogue-filter';
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
 * The model list (/about): the About text, then the catalogue limited to the models the server offers: to a
 * signed-in user those of their group, to a visitor those some channel serves.
 */
export default function AboutPage() {
  const { t } = useTranslation();
  const user = useUser();
  const [available, setAvailable] = useState<string[] | null>(null);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    let cancelled = false;
    setLoading(true);
    (user ? fetchAvailableModels() : fetchServedModels())
      .then((names) => !cancelled && setAvailable(names ?? []))
      .catch((error: unknown) => {
        if (cancelled) return;
        if (!(error instanceof ApiError && error.status === 401)) {
          notify.error(error instanceof ApiError && error.status === undefined ? error.message : t('about.loadFailed'));
        }
        setAvailable([]);
      })
      .finally(() => !cancelled && setLoading(false));
    return () => {
      cancelled = true;
    };
  }, [user, t]);

  const entries = useMemo(() => availableEntries(CATALOGUE, available ?? []), [available]);

  return (
    <>
      <PageHeading
        title={t('about.title')}
        extra={
          <Typography.Text type="secondary" data-testid="catalogue-count">
            {loading ? '' : t('about.loadedCount', { count: entries.length })}
          </Typography.Text>
        }
      />
      <AboutText />
      <ModelCatalogue entries={loading ? [] : entries} loading={loading} />
    </>
  );
}
