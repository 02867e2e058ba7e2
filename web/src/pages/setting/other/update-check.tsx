import { Button, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchLatestRelease } from '../../../api/status-page';
import type { ReleaseInfo } from '../../../api/option';
import { MarkdownContent } from '../../../components/html-content/markdown-content';
import { notify } from '../../../lib/notify';
import { useStatus } from '../../../stores/status.store';

/** Checks the latest release against the running version. */
export function UpdateCheck() {
  const { t } = useTranslation();
  const status = useStatus();
  const [release, setRelease] = useState<ReleaseInfo | null>(null);
  const [checking, setChecking] = useState(false);
  const current = status.version ?? import.meta.env.VITE_APP_VERSION ?? '';
  const check = async () => {
    setChecking(true);
    try {
      const latest = await fetchLatestRelease();
      if (latest.tag_name === current) notify.success(t('settingAdmin.update.latest', { version: current }));
      else setRelease(latest);
    } catch {
      // shown by the common handler
    } finally {
      setChecking(false);
    }
  };
  return (
    <>
      <Typography.Paragraph>{t('settingAdmin.update.current', { version: current || '-' })}</Typography.Paragraph>
      <Button loading={checking} onClick={() => void check()}>
        {t('settingAdmin.update.check')}
      </Button>
      <Modal
        open={release !== null}
        title={t('settingAdmin.update.newVersion', { version: release?.tag_name ?? '' })}
        onCancel={() => setRelease(null)}
        onOk={() => setRelease(null)}
        cancelButtonProps={{ style: { display: 'none' } }}
      >
        <MarkdownContent markdown={release?.body ?? ''} />
      </Modal>
    </>
  );
}
