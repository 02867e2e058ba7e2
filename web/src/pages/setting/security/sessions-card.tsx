import { LogoutOutlined } from '@ant-design/icons';
import { Button, Card, Flex, List, Popconfirm, Skeleton, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTimestamp } from '../../../lib/time';
import { notify } from '../../../lib/notify';
import { describeDevice } from './device';
import { fetchSessions, revokeOtherSessions, revokeSession, type UserSession } from './security-api';

/** The user's signed-in sessions: device, IP, created and last seen; sign out one, or all but this one. */
export function SessionsCard() {
  const { t } = useTranslation();
  const [sessions, setSessions] = useState<UserSession[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setSessions(await fetchSessions());
    } catch {
      setSessions([]);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const signOutOne = async (id: string) => {
    setBusy(id);
    try {
      await revokeSession(id);
      notify.success(t('setting.security.sessions.signedOut'));
      await load();
    } catch {
      // shown by the common handler
    } finally {
      setBusy(null);
    }
  };

  const signOutOthers = async () => {
    setBusy('others');
    try {
      const { ended } = await revokeOtherSessions();
      notify.success(t('setting.security.sessions.othersSignedOut', { count: ended }));
      await load();
    } catch {
      // shown by the common handler
    } finally {
      setBusy(null);
    }
  };

  const others = (sessions ?? []).filter((session) => !session.current).length;
  return (
    <Card
      title={t('setting.security.sessions.title')}
      extra={
        <Popconfirm
          title={t('setting.security.sessions.othersConfirm')}
          okText={t('setting.security.confirm')}
          cancelText={t('common.cancel')}
          onConfirm={() => signOutOthers()}
          disabled={others === 0}
        >
          <Button size="small" danger disabled={others === 0} loading={busy === 'others'}>
            {t('setting.security.sessions.signOutOthers')}
          </Button>
        </Popconfirm>
      }
    >
      {sessions === null ? (
        <Skeleton active paragraph={{ rows: 2 }} title={false} />
      ) : (
        <List
          data-testid="session-list"
          dataSource={sessions}
          locale={{ emptyText: t('setting.security.sessions.empty') }}
          renderItem={(session) => (
            <List.Item
              data-testid="session-row"
              actions={
                session.current
                  ? []
                  : [
                      <Button
                        key="out"
                        size="small"
                        icon={<LogoutOutlined />}
                        loading={busy === session.id}
                        onClick={() => void signOutOne(session.id)}
                      >
                        {t('setting.security.sessions.signOut')}
                      </Button>,
                    ]
              }
            >
              <List.Item.Meta
                title={
                  <Flex gap={8} wrap align="center">
                    <span>{describeDevice(session.user_agent) || t('setting.security.sessions.unknownDevice')}</span>
                    {session.current ? <Tag color="green">{t('setting.security.sessions.current')}</Tag> : null}
                  </Flex>
                }
                description={
                  <Typography.Text type="secondary">
                    {t('setting.security.sessions.details', {
                      ip: session.ip || '-',
                      created: formatTimestamp(session.created_at) ?? '-',
                      seen: formatTimestamp(session.last_seen_at) ?? '-',
                    })}
                  </Typography.Text>
                }
              />
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
