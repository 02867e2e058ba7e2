import { Tabs, theme } from 'antd';
import type { TabsProps } from 'antd';
import { useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageHeading } from '../../components/page-heading/page-heading';
import { isAdmin } from '../../lib/roles';
import { useUser } from '../../stores/user.store';
import { OperationSetting } from './operation/operation-setting';
import { OtherSetting } from './other/other-setting';
import { PersonalSetting } from './personal-setting';
import { SystemSetting } from './system/system-setting';

/** The Tabs' id: its panels are `setting-panel-<key>`, labelled by the tabs `setting-tab-<key>` below. */
const TABS_ID = 'setting';

interface SectionTabsProps {
  items: ReadonlyArray<{ key: string; label: string }>;
  activeKey: string;
  label: string;
  onSelect: (key: string) => void;
}

/**
 * The settings sections as a WAI-ARIA tablist that holds only its tabs: antd's own bar puts its overflow "…"
 * button inside the tablist (axe: aria-required-children), even when every tab fits. Here the tabs wrap onto a
 * second line instead of hiding behind that button; arrows, Home and End move between them (roving tabindex).
 */
function SectionTabs({ items, activeKey, label, onSelect }: SectionTabsProps) {
  const { token } = theme.useToken();
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const keyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const steps: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowLeft: index - 1,
      Home: 0,
      End: items.length - 1,
    };
    const target = steps[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const key = items[(target + items.length) % items.length]!.key;
    onSelect(key);
    buttons.current.get(key)?.focus();
  };
  return (
    <div
      role="tablist"
      aria-label={label}
      data-testid="setting-tabs"
      style={{
        display: 'flex',
        flexWrap: 'wrap',
        columnGap: token.marginXL,
        marginBottom: token.margin,
        borderBottom: `1px solid ${token.colorBorderSecondary}`,
      }}
    >
      {items.map((item, index) => {
        const active = item.key === activeKey;
        return (
          <button
            key={item.key}
            ref={(element) => {
              if (element) buttons.current.set(item.key, element);
              else buttons.current.delete(item.key);
            }}
            type="button"
            role="tab"
            id={`${TABS_ID}-tab-${item.key}`}
            aria-selected={active}
            aria-controls={`${TABS_ID}-panel-${item.key}`}
            tabIndex={active ? 0 : -1}
            onClick={() => onSelect(item.key)}
            onKeyDown={(event) => keyDown(event, index)}
            style={{
              padding: `${token.paddingSM}px 0`,
              marginBottom: -1,
              border: 'none',
              borderBottom: `2px solid ${active ? token.colorPrimary : 'transparent'}`,
              background: 'none',
              color: active ? token.colorPrimary : token.colorText,
              fontSize: token.fontSize,
              fontFamily: 'inherit',
              cursor: 'pointer',
            }}
          >
            {item.label}
          </button>
        );
      })}
    </div>
  );
}

/** Settings (/setting): personal for everyone; operation, system and other for admins. */
export default function SettingPage() {
  const { t } = useTranslation();
  const user = useUser();
  const [searchParams, setSearchParams] = useSearchParams();
  const items: NonNullable<TabsProps['items']> & Array<{ key: string; label: string }> = [
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
  const select = (key: string) => setSearchParams(key === 'personal' ? {} : { tab: key }, { replace: true });
  return (
    <>
      <PageHeading title={t('setting.title')} />
      <Tabs
        id={TABS_ID}
        activeKey={activeKey}
        items={items}
        onChange={select}
        renderTabBar={() => (
          <SectionTabs items={items} activeKey={activeKey} label={t('setting.title')} onSelect={select} />
        )}
      />
    </>
  );
}
