import { Card, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageHeading } from './page-heading';

export interface PagePlaceholderProps {
  /** Translation key of the page heading. */
  titleKey: string;
}

/** A page whose content is still being built: its heading and an empty card. */
export function PagePlaceholder({ titleKey }: PagePlaceholderProps) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeading title={t(titleKey)} />
      <Card>
        <Empty description={t('common.comingSoon')} />
      </Card>
    </>
  );
}
