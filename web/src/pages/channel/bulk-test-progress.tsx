import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Progress } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchBulkTestProgress } from '../../api/channel';
import { queryKeys } from '../../lib/query-keys';

const POLL_MS = 2000;

/** Progress of a bulk test started `run` (a counter, 0 = none), polled while it runs; the list is read again once it ends. */
export function BulkTestProgressBar({ run }: { run: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: progress } = useQuery({
    queryKey: queryKeys.read('channel', 'bulk-test', { run }),
    queryFn: fetchBulkTestProgress,
    enabled: run > 0,
    refetchInterval: (query) => (query.state.data?.running ? POLL_MS : false),
    // The progress is a nicety; the list still refreshes by hand.
    meta: { ignoreFailure: true },
  });
  const finished = progress !== undefined && !progress.running;
  useEffect(() => {
    if (finished) void queryClient.invalidateQueries({ queryKey: queryKeys.lists('channel') });
  }, [finished, queryClient]);

  if (!progress || (!progress.running && !progress.total)) return null;
  const percent = progress.total ? Math.round((progress.done / progress.total) * 100) : 0;
  return (
    <Alert
      style={{ marginBottom: 12 }}
      type={progress.running ? 'info' : 'success'}
      title={t(progress.running ? 'channel.bulk.running' : 'channel.bulk.finished', {
        done: progress.done,
        total: progress.total,
        scope: t(progress.scope === 'disabled' ? 'channel.bulk.scopeDisabled' : 'channel.bulk.scopeAll'),
      })}
      description={<Progress percent={percent} size="small" />}
    />
  );
}
