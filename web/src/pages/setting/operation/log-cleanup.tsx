import { Button, DatePicker, Flex, Popconfirm } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteLogsBefore } from '../../../api/log';
import { ApiError } from '../../../api/client';
import { notify } from '../../../lib/notify';

/** Default cleanup target: 30 days ago. */
export const DEFAULT_CLEANUP_AGE_SECONDS = 2_592_000;

/** Deletes logs older than a chosen time. */
export function LogCleanup() {
  const { t } = useTranslation();
  const [target, setTarget] = useState<Dayjs>(() => dayjs().subtract(DEFAULT_CLEANUP_AGE_SECONDS, 'second'));
  const [running, setRunning] = useState(false);
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
    </Flex>
  );
}
