import { DownOutlined } from '@ant-design/icons';
import { Button, Dropdown, Popconfirm, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { deleteToken, setTokenStatus, type TokenDetails } from '../../api/token';
import { copyText } from '../../lib/clipboard';
import { notify } from '../../lib/notify';
import { buildChatAppLink, CHAT_APPS, fullKey, type ChatApp } from './chat-links';

export interface TokenActionsProps {
  token: TokenDetails;
  serverAddress: string;
  chatLink: string | null;
  replace: (id: number, change: Partial<TokenDetails> | null) => void;
  /** Where the key goes when the clipboard refuses. */
  onCopyFailed: (text: string) => void;
}

/** Row actions of the token list: copy key, open in a chat app, delete, enable/disable, edit. */
export function TokenActions({ token, serverAddress, chatLink, replace, onCopyFailed }: TokenActionsProps) {
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

  const toggle = async () => {
    try {
      const next = token.status === 1 ? 2 : 1;
      const updated = await setTokenStatus(token.id, next);
      replace(token.id, { status: updated?.status ?? next });
      notify.success(t('token.toast.success'));
    } catch {
      // shown by the common handler
    }
  };

  const remove = async () => {
    try {
      await deleteToken(token.id);
      replace(token.id, null);
      notify.success(t('token.toast.success'));
    } catch {
      // shown by the common handler
    }
  };

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
      <Button size="small" onClick={() => void toggle()}>
        {token.status === 1 ? t('token.action.disable') : t('token.action.enable')}
      </Button>
      <Button size="small" onClick={() => navigate(`/token/edit/${token.id}`)}>
        {t('token.action.edit')}
      </Button>
    </Space>
  );
}
