import { Tabs } from 'antd';
import type { TabsProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageHeading } from '../../components/page-heading/page-heading';
import { isAdmin } from '../../lib/roles';
import { useUser } from '../../stores/user.store';
import { OperationSetting } from './operation/operation-setting';
import { OtherSetting } from './other/other-setting';
import { PersonalSetting } from './personal-setting';
import { SystemSetting } from './system/system-setting';

/** Settings (/setting): personal for everyone; operation, system and other for admins. */
export default function SettingPage() {
  const { t } = useTranslation();
  const user = useUser();
  const [searchParams, setSearchParams] = useSearchParams();
  const items: TabsProps['items'] = [
    { key: 'personal', label: t('setting.tabs.personal'), children: <PersonalSetting /> },
  ];
  if (isAdmin(user)) {
    items.push(
      { key: 'operation', label: t('setting.tabs.operation'), children: <OperationSetting /> },
      { key: 'system', label: t('setting.tabs.system'), children: <SystemSetting /> },
      { key: 'other', label: t('setting.tabs.other'), children: <OtherSetting /> },
    );
  }
  const requested = searchParams.get('tab');
  const activeKey = items.some((item) => item.key === requested) ? (requested as string) : 'personal';
  return (
    <>
      <PageHeading title={t('setting.title')} />
      <Tabs
        activeKey={activeKey}
        items={items}
        onChange={(key) => setSearchParams(key === 'personal' ? {} : { tab: key }, { replace: true })}
      />
    </>
  );
}
