import { Button, DatePicker, Flex, Popconfirm, Progress } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteLogsBefore, fetchLogCleanupProgress } from '../../../api/log';
import { ApiError } from '../../../api/client';
import { notify } from '../../../lib/notify';

const PROGRESS_POLL_MS = 1000;

/** Percent of a cleanup's slices done (0 before the first one is counted). */
export const cleanupPercent = (progress: { done: number; total: number }): number =>
  progress.total > 0 ? Math.min(100, Math.floor((progress.done / progress.total) * 100)) : 0;

/** Polls the server's cleanup progress while `running`; answers the percent, or null before the first answer. */
function useCleanupPercent(running: boolean): number | null {
  const [percent, setPercent] = useState<number | null>(null);
  useEffect(() => {
    if (!running) {
      setPercent(null);
      return;
    }
    let stopped = false;
    const poll = async () => {
      try {
        const progress = await fetchLogCleanupProgress();
        if (!stopped && progress.running) setPercent(cleanupPercent(progress));
      } catch {
        // the progress is a nicety; the delete's own answer still arrives
      }
    };
    const timer = setInterval(() => void poll(), PROGRESS_POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [running]);
  return percent;
}

/** Default cleanup target: 30 days ago. */
const DEFAULT_CLEANUP_AGE_SECONDS = 2_592_000;

/** Deletes logs older than a chosen time. */
export function LogCleanup() {
  const { t } = useTranslation();
  const [target, setTarget] = useState<Dayjs>(() => dayjs().subtract(DEFAULT_CLEANUP_AGE_SECONDS, 'second'));
  const [running, setRunning] = useState(false);
  const percent = useCleanupPercent(running);
  const clean = async () => {
    setRunning(true);
    try {
      const count = await deleteLogsBefore(target.unix());
      notify.success(t('settingAdmin.logs.cleared', { count }));
    } catch (error) {
      if (!(error instanceof ApiError) || !error.shown) {
        notify.error(
          t('settingAdmin.logs.cleanupFailed', { message: error instanceof Error ? error.message : String(error) }),
        );
      }
    } finally {
      setRunning(false);
    }
  };
  return (
    <Flex gap={8} wrap align="center" style={{ marginBottom: 12 }}>
      <span>{t('settingAdmin.logs.target')}</span>
      <DatePicker showTime value={target} onChange={(value) => value && setTarget(value)} allowClear={false} />
      <Popconfirm title={t('settingAdmin.logs.confirm')} onConfirm={clean}>
        <Button danger loading={running}>
          {t('settingAdmin.logs.clean')}
        </Button>
      </Popconfirm>
      {running && percent !== null && (
        <Flex gap={8} align="center" style={{ minWidth: 240 }}>
          <span>{t('settingAdmin.logs.progress', { percent })}</span>
          <Progress percent={percent} size="small" showInfo={false} style={{ width: 120, margin: 0 }} />
        </Flex>
      )}
    </Flex>
  );
}
