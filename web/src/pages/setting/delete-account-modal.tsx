import { Alert, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../lib/notify';

export interface DeleteAccountModalProps {
  open: boolean;
  username: string;
  onClose: () => void;
  onConfirm: () => Promise<void>;
}

/** Self-deletion, confirmed by typing one's own username. */
export function DeleteAccountModal({ open, username, onClose, onConfirm }: DeleteAccountModalProps) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    if (typed !== username) {
      notify.error(t('setting.personal.deleteConfirmMismatch'));
      return;
    }
    setBusy(true);
    try {
      await onConfirm();
    } catch {
      // shown by the common handler
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('setting.personal.deleteAccount')}
      onCancel={onClose}
      onOk={() => void confirm()}
      okText={t('setting.personal.deleteConfirm')}
      okButtonProps={{ danger: true }}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      destroyOnHidden
    >
      <Alert type="error" showIcon title={t('setting.personal.deleteWarning')} style={{ marginBottom: 12 }} />
      <Typography.Paragraph>{t('setting.personal.deletePrompt', { username })}</Typography.Paragraph>
      <Input
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        placeholder={username}
        aria-label={t('setting.personal.deletePrompt', { username })}
      />
    </Modal>
  );
}
