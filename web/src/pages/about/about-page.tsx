import { Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { fetchAvailableModels } from '../../api/user';
import { PageHeading } from '../../components/page-heading/page-heading';
import { notify } from '../../lib/notify';
import { useUser } from '../../stores/user.store';
import { availableEntries } from './catalogue-filter';
import { CATALOGUE } from './catalogue.data';
import { ModelCatalogue } from './model-catalogue';

/** The model list (/about): the catalogue limited to the models the server offers to this user. */
export default function AboutPage() {
  const { t } = useTranslation();
  const user = useUser();
  const [available, setAvailable] = useState<string[] | null>(null);
  const [loading, setLoading] = useState(user !== null);

  useEffect(() => {
    if (!user) {
      setAvailable(null);
      setLoading(false);
      return;
    }
    let cancelled = false;
    setLoading(true);
    fetchAvailableModels()
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

  const entries = useMemo(
    () => (user ? availableEntries(CATALOGUE, available ?? []) : [...CATALOGUE]),
    [user, available],
  );

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
      <ModelCatalogue entries={loading ? [] : entries} loading={loading} />
    </>
  );
}
