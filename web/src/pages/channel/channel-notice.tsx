import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';

/** The dismissible notice above the channel table. */
export function ChannelNotice() {
  const { t } = useTranslation();
  return (
    <Alert
      style={{ marginBottom: 12 }}
      type="info"
      closable
      showIcon
      title={t('channel.notice.title')}
      description={
        <ul style={{ margin: 0, paddingInlineStart: 18 }}>
          <li>{t('channel.notice.balance')}</li>
          <li>{t('channel.notice.test')}</li>
          <li>{t('channel.notice.detail')}</li>
        </ul>
      }
    />
  );
}
