import { Avatar, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Provider } from './catalogue-types';
import { readableMarkColour } from './mark-colour';

/** Each provider's mark: brand colour and a short monogram. */
const marks: Record<Provider, { color: string; monogram: string }> = {
  openai: { color: '#10a37f', monogram: 'OA' },
  anthropic: { color: '#8a4f2c', monogram: 'AN' },
  google: { color: '#1a73e8', monogram: 'G' },
  doubao: { color: '#3c6cff', monogram: 'DB' },
  ernie: { color: '#2932e1', monogram: 'EB' },
  moonshot: { color: '#16191e', monogram: 'MS' },
  baichuan: { color: '#f25c05', monogram: 'BC' },
  minimax: { color: '#e2167e', monogram: 'MM' },
  yi: { color: '#133426', monogram: '01' },
  stepfun: { color: '#005aff', monogram: 'SF' },
  deepseek: { color: '#4d6bfe', monogram: 'DS' },
  zhipu: { color: '#3859ff', monogram: 'ZP' },
  spark: { color: '#0070f0', monogram: 'XF' },
  hunyuan: { color: '#0052d9', monogram: 'HY' },
  ai360: { color: '#15b03e', monogram: '360' },
};

export function ProviderMark({ provider, size = 24 }: { provider: Provider; size?: number }) {
  const mark = marks[provider];
  return (
    <Avatar
      size={size}
      style={{ background: readableMarkColour(mark.color), fontSize: size * 0.4, flexShrink: 0 }}
      aria-hidden
    >
      {mark.monogram}
    </Avatar>
  );
}

/** Provider logo and name. */
export function ProviderLabel({ provider }: { provider: Provider }) {
  const { t } = useTranslation();
  return (
    <Flex align="center" gap={8}>
      <ProviderMark provider={provider} />
      <Typography.Text style={{ whiteSpace: 'nowrap' }}>{t(`about.provider.${provider}`)}</Typography.Text>
    </Flex>
  );
}
