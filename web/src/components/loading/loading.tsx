import { Flex, theme } from 'antd';
import { useTranslation } from 'react-i18next';

export interface LoadingProps {
  /** Translated name of what loads; defaults to 'page'. */
  prompt?: string;
}

/** Centred placeholder about 100 px high: a spinner and 'loading {prompt} ...'. */
export function Loading({ prompt }: LoadingProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const text = t('common.loading', { prompt: prompt ?? t('common.loadingPrompt.page') });
  return (
    <Flex
      vertical
      align="center"
      justify="center"
      gap={12}
      style={{ height: 100 }}
      role="status"
      aria-live="polite"
      data-testid="loading"
    >
      {/* A CSS ring rather than antd's Spin, which is not part of the initial JavaScript. */}
      <span
        className="loading-spinner"
        aria-hidden
        style={{ borderColor: token.colorPrimary, borderRightColor: 'transparent' }}
      />
      <span style={{ color: token.colorTextSecondary }}>{text}</span>
    </Flex>
  );
}
