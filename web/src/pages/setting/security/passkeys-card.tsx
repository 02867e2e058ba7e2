import { DeleteOutlined, KeyOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Input, List, Popconfirm, Skeleton, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { notify } from '../../../lib/notify';
import { formatTimestamp } from '../../../lib/time';
import { addPasskey, deletePasskey, fetchPasskeys, type Passkey } from './security-api';

/**
 * A failure the common handler has not shown: the browser's prompt was cancelled or timed out, or this browser
 * has no WebAuthn.
 */
export function notifyPasskeyFailure(error: unknown, message: string) {
  if (error instanceof ApiError && error.shown) return;
  notify.error(message);
}

/** The user's passkeys (WebAuthn, decision 0030): listed, added with a name, removed after a confirmation. */
export function PasskeysCard() {
  const { t } = useTranslation();
  const [passkeys, setPasskeys] = useState<Passkey[] | null>(null);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState<number | 'add' | null>(null);

  const load = useCallback(async () => {
    try {
      setPasskeys(await fetchPasskeys());
    } catch {
      setPasskeys([]);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const add = async () => {
    setBusy('add');
    try {
      await addPasskey(name.trim() || t('setting.security.passkeys.defaultName'));
      notify.success(t('setting.security.passkeys.added'));
      setName('');
      await load();
    } catch (error) {
      notifyPasskeyFailure(error, t('setting.security.passkeys.failed'));
    } finally {
      setBusy(null);
    }
  };

  const remove = async (id: number) => {
    setBusy(id);
    try {
      await deletePasskey(id);
      notify.success(t('setting.security.passkeys.deleted'));
      await load();
    } catch {
      // shown by the common handler
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card
      title={
        <Flex gap={8} align="center">
          <KeyOutlined />
          {t('setting.security.passkeys.title')}
        </Flex>
      }
    >
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">{t('setting.security.passkeys.hint')}</Typography.Text>
        <Flex gap={8} wrap>
          <Input
            value={name}
            onChange={(event) => setName(event.target.value)}
            placeholder={t('setting.security.passkeys.namePlaceholder')}
            aria-label={t('setting.security.passkeys.name')}
            maxLength={64}
            style={{ maxWidth: 240 }}
          />
          <Button icon={<PlusOutlined />} loading={busy === 'add'} onClick={() => void add()}>
            {t('setting.security.passkeys.add')}
          </Button>
        </Flex>
        {passkeys === null ? (
          <Skeleton active paragraph={{ rows: 1 }} title={false} />
        ) : (
          <List
            data-testid="passkey-list"
            dataSource={passkeys}
            locale={{ emptyText: t('setting.security.passkeys.empty') }}
            renderItem={(item) => (
              <List.Item
                data-testid="passkey-row"
                actions={[
                  <Popconfirm
                    key="delete"
                    title={t('setting.security.passkeys.deleteConfirm', { name: item.name })}
                    okText={t('setting.security.confirm')}
                    cancelText={t('common.cancel')}
                    onConfirm={() => remove(item.id)}
                  >
                    <Button
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      loading={busy === item.id}
                      aria-label={t('setting.security.passkeys.delete', { name: item.name })}
                    >
                      {t('setting.security.passkeys.deleteShort')}
                    </Button>
                  </Popconfirm>,
                ]}
              >
                <List.Item.Meta
                  title={item.name}
                  description={
                    <Typography.Text type="secondary">
                      {t('setting.security.passkeys.details', {
                        created: formatTimestamp(item.created_at) ?? '-',
                        used: item.last_used_at
                          ? (formatTimestamp(item.last_used_at) ?? '-')
                          : t('setting.security.passkeys.neverUsed'),
                      })}
                    </Typography.Text>
                  }
                />
              </List.Item>
            )}
          />
        )}
      </Flex>
    </Card>
  );
}
