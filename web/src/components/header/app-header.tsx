import { CloseOutlined, DownOutlined, LogoutOutlined, MenuOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Dropdown, Flex, Layout, Menu, theme } from 'antd';
import type { MenuProps } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useWindowWidth } from '../../hooks/use-media';
import { useLogout } from '../../hooks/use-session-actions';
import { buildMenu, type MenuEntry } from '../../lib/menu';
import { useChatLink } from '../../stores/status.store';
import { useUser } from '../../stores/user.store';
import { Brand } from './brand';
import { LanguageSwitch } from './language-switch';
import { menuIcons } from './menu-icons';
import { prepareChatUrl } from './open-chat';

function selectedKey(pathname: string, entries: MenuEntry[]): string[] {
  const match = entries.find((entry) =>
    entry.path === '/' ? pathname === '/' : pathname === entry.path || pathname.startsWith(`${entry.path}/`),
  );
  return match ? [match.key] : [];
}

/** Below this width the horizontal menu drops its icons so that every entry fits. */
const WIDE_MENU_ICONS_PX = 1440;

/** The navigation bar of spec section 2. */
export function AppHeader() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const user = useUser();
  const chatLink = useChatLink();
  const width = useWindowWidth();
  const navigate = useNavigate();
  const location = useLocation();
  const logout = useLogout();
  const [open, setOpen] = useState(false);
  const model = buildMenu(user, chatLink, width);

  useEffect(() => setOpen(false), [location.pathname, model.collapsed]);

  const go = async (entry: MenuEntry) => {
    setOpen(false);
    if (entry.key !== 'chat') {
      navigate(entry.path);
      return;
    }
    if (!user) {
      navigate('/login');
      return;
    }
    if (chatLink) await prepareChatUrl(chatLink);
    navigate('/chat');
  };

  const items: MenuProps['items'] = model.entries.map((entry) => ({
    key: entry.key,
    icon: model.collapsed || width >= WIDE_MENU_ICONS_PX ? menuIcons[entry.key] : undefined,
    label: t(entry.labelKey),
    onClick: () => void go(entry),
  }));
  const menu = (
    <Menu
      mode={model.collapsed ? 'inline' : 'horizontal'}
      items={items}
      selectedKeys={selectedKey(location.pathname, model.entries)}
      style={{ flex: 1, minWidth: 0, borderBottom: 'none', borderInlineEnd: 'none', background: 'transparent' }}
    />
  );

  const accountArea = user ? (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          { key: 'setting', icon: <UserOutlined />, label: t('header.account.personal') },
          { key: 'logout', icon: <LogoutOutlined />, label: t('header.account.logout') },
        ],
        onClick: ({ key }) => (key === 'logout' ? void logout() : navigate('/setting')),
      }}
    >
      <Button type="text" data-testid="account-menu">
        <UserOutlined />
        <span className="header-username">{user.username}</span>
        <DownOutlined />
      </Button>
    </Dropdown>
  ) : (
    <Flex gap={8}>
      <Button onClick={() => navigate('/login')}>{t('header.account.login')}</Button>
      <Button type="primary" onClick={() => navigate('/register')}>
        {t('header.account.register')}
      </Button>
    </Flex>
  );

  return (
    <Layout.Header
      className="app-header"
      style={{ background: token.colorBgContainer, borderBottom: `1px solid ${token.colorBorderSecondary}` }}
    >
      <Flex align="center" gap={16} style={{ height: '100%' }}>
        <Brand />
        {model.collapsed ? <div style={{ flex: 1 }} /> : menu}
        <LanguageSwitch />
        {model.collapsed ? (
          <Button
            type="text"
            aria-label={t('header.toggleMenu')}
            aria-expanded={open}
            data-testid="menu-toggle"
            icon={open ? <CloseOutlined /> : <MenuOutlined />}
            onClick={() => setOpen((value) => !value)}
          />
        ) : (
          accountArea
        )}
      </Flex>
      {model.collapsed && open && (
        <div
          className="mobile-menu"
          data-testid="mobile-menu"
          style={{ background: token.colorBgContainer, borderBottom: `1px solid ${token.colorBorderSecondary}` }}
        >
          {menu}
          <Flex gap={8} style={{ padding: '8px 16px 16px' }}>
            {model.accountActions.includes('logout') ? (
              <>
                <Button block icon={<UserOutlined />} onClick={() => navigate('/setting')}>
                  {t('header.account.personal')}
                </Button>
                <Button block danger icon={<LogoutOutlined />} onClick={() => void logout()}>
                  {t('header.account.logout')}
                </Button>
              </>
            ) : (
              <>
                <Button block onClick={() => navigate('/login')}>
                  {t('header.account.login')}
                </Button>
                <Button block type="primary" onClick={() => navigate('/register')}>
                  {t('header.account.register')}
                </Button>
              </>
            )}
          </Flex>
        </div>
      )}
    </Layout.Header>
  );
}
