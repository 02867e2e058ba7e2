import { Flex, Form, Image, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../lib/notify';

export interface WechatCodeModalProps {
  open: boolean;
  qrCodeUrl?: string;
  title: string;
  onCancel: () => void;
  /** Receives the non-empty code; resolves when the caller is done. */
  onSubmit: (code: string) => Promise<void>;
}

/** QR code of the WeChat account and a field for the verification code it sends (valid 3 minutes). */
export function WechatCodeModal({ open, qrCodeUrl, title, onCancel, onSubmit }: WechatCodeModalProps) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    if (!code.trim()) {
      notify.error(t('common.wechat.codeRequired'));
      return;
    }
    setBusy(true);
    try {
      await onSubmit(code.trim());
      setCode('');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      onCancel={onCancel}
      onOk={() => void submit()}
      okText={t('common.submit')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      destroyOnHidden
    >
      <Flex vertical align="center" gap={12}>
        {qrCodeUrl ? <Image src={qrCodeUrl} width={200} preview={false} alt="" /> : null}
        <Typography.Paragraph type="secondary" style={{ textAlign: 'center', marginBottom: 0 }}>
          {t('common.wechat.hint')}
        </Typography.Paragraph>
        <Form style={{ width: '100%' }} onFinish={() => void submit()}>
          <Form.Item style={{ marginBottom: 0 }}>
            <Input
              value={code}
              onChange={(event) => setCode(event.target.value)}
              placeholder={t('common.wechat.codePlaceholder')}
              aria-label={t('common.wechat.codePlaceholder')}
            />
          </Form.Item>
        </Form>
      </Flex>
    </Modal>
  );
}
