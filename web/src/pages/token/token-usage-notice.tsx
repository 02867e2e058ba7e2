import { Alert, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** How to use a token: replace the API key and the base URL in the client. */
export function TokenUsageNotice({ serverAddress }: { serverAddress: string }) {
  const { t } = useTranslation();
  return (
    <Alert
      style={{ marginBottom: 12 }}
      type="info"
      showIcon
      title={t('token.usage.title')}
      description={
        <>
          <div>{t('token.usage.text')}</div>
          <Typography.Text code copyable>
            {t('token.usage.keyLine')}
          </Typography.Text>{' '}
          <Typography.Text code copyable>
            {t('token.usage.urlLine', { url: serverAddress })}
          </Typography.Text>
        </>
      }
    />
  );
}
