import { Popover, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const SHOWN = 3;

/** The first three allowed models, the rest in a popup; no list means every model. */
export function TokenModelsCell({ models }: { models: string | null }) {
  const { t } = useTranslation();
  const names = (models ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 0) return <Tag>{t('token.models.all')}</Tag>;
  const rest = names.slice(SHOWN);
  return (
    <Space size={4} wrap>
      {names.slice(0, SHOWN).map((name) => (
        <Tag key={name}>{name}</Tag>
      ))}
      {rest.length > 0 && (
        <Popover
          content={
            <Space size={4} wrap style={{ maxWidth: 320 }}>
              {rest.map((name) => (
                <Tag key={name}>{name}</Tag>
              ))}
            </Space>
          }
        >
          <Tag color="blue">{t('token.models.more', { count: rest.length })}</Tag>
        </Popover>
      )}
    </Space>
  );
}
