import { DownOutlined } from '@ant-design/icons';
import { Button, Dropdown, Popconfirm, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { deleteToken, setTokenStatus, type TokenDetails } from '../../api/token';
import type { RowWriter } from '../../hooks/use-row-write';
import { copyText } from '../../lib/clipboard';
import { notify } from '../../lib/notify';
import { buildChatAppLink, CHAT_APPS, fullKey, type ChatApp } from './chat-links';

export interface TokenActionsProps {
  token: TokenDetails;
  serverAddress: string;
  chatLink: string | null;
  writeRow: RowWriter<TokenDetails>;
  /** Where the key goes when the clipboard refuses. */
  onCopyFailed: (text: string) => void;
}

/** Row actions of the token list: copy key, open in a chat app, delete, enable/disable, edit. */
export function TokenActions({ token, serverAddress, chatLink, writeRow, onCopyFailed }: TokenActionsProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();

  const copyKey = async () => {
    const key = fullKey(token.key);
    if (await copyText(key)) notify.success(t('token.toast.copied'));
    else {
      notify.warning(t('common.copyFailed'));
      onCopyFailed(key);
    }
  };

  const openChat = (app: ChatApp) => {
    window.open(buildChatAppLink(app, token.key, serverAddress, chatLink), '_blank', 'noopener');
  };

  const toggle = () =>
    writeRow(token.id, async () => {
      const next = token.status === 1 ? 2 : 1;
      const updated = await setTokenStatus(token.id, next);
      notify.success(t('token.toast.success'));
      return { status: updated?.status ?? next };
    });

  const remove = () =>
    writeRow(token.id, async () => {
      await deleteToken(token.id);
      notify.success(t('token.toast.success'));
      return null;
    });

  return (
    <Space size={4} wrap>
      <Button size="small" type="primary" onClick={() => void copyKey()}>
        {t('token.action.copy')}
      </Button>
      <Dropdown
        menu={{
          items: CHAT_APPS.map((app) => ({ key: app, label: t(`token.chatApp.${app}`) })),
          onClick: ({ key }) => openChat(key as ChatApp),
        }}
      >
        <Button size="small">
          {t('token.action.chat')} <DownOutlined />
        </Button>
      </Dropdown>
      <Popconfirm title={t('token.confirm.delete', { name: token.name })} onConfirm={remove}>
        <Button size="small" danger>
          {t('token.action.delete')}
        </Button>
      </Popconfirm>
      <Button size="small" onClick={toggle}>
        {token.status === 1 ? t('token.action.disable') : t('token.action.enable')}
      </Button>
      <Button size="small" onClick={() => navigate(`/token/edit/${token.id}`)}>
        {t('token.action.edit')}
      </Button>
    </Space>
  );
}
