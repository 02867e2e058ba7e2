import { useTranslation } from 'react-i18next';
import { StorageKey } from '../../lib/storage-keys';

/** Chat front-end used when the server stores no chat link. */
const DEFAULT_CHAT_URL = 'https://app.nextchat.dev/';

/** The external chat service in a full-height frame (/chat). */
export default function ChatPage() {
  const { t } = useTranslation();
  const url = localStorage.getItem(StorageKey.chatUrl) || localStorage.getItem(StorageKey.chatLink) || DEFAULT_CHAT_URL;
  return (
    <div className="full-bleed">
      <h1 className="visually-hidden">{t('chat.title')}</h1>
      <iframe
        src={url}
        className="frame-page"
        title={t('chat.title')}
        data-testid="chat-frame"
        allow="clipboard-write"
      />
    </div>
  );
}
