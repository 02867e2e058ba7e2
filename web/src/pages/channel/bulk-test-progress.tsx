import { Alert, Progress } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchBulkTestProgress, type BulkTestProgress } from '../../api/channel';

const POLL_MS = 2000;

/** Progress of a running bulk test, polled while it runs; `onFinished` lets the list refresh. */
export function BulkTestProgressBar({ watching, onFinished }: { watching: number; onFinished: () => void }) {
  const { t } = useTranslation();
  const [progress, setProgress] = useState<BulkTestProgress | null>(null);

  useEffect(() => {
    if (!watching) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const next = await fetchBulkTestProgress();
        if (stopped) return;
        setProgress(next);
        if (next.running) timer = setTimeout(() => void poll(), POLL_MS);
        else onFinished();
      } catch {
        // the progress is a nicety; the list still refreshes by hand
      }
    };
    void poll();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [watching, onFinished]);

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
