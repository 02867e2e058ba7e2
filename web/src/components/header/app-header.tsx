import { CloseOutlined, DownOutlined, LogoutOutlined, MenuOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Dropdown, Flex, Menu, theme } from 'antd';
import type { MenuProps } from 'antd';
import { useEffect, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
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

/**
 * A click the menu handles itself: the primary button (or Enter) without a modifier. A middle click, or one with
 * Ctrl, Cmd or Shift, is left to the browser, which opens the entry's link in a new tab or window.
 */
const isPlainClick = (event: MouseEvent | KeyboardEvent) =>
  !(event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) && (!('button' in event) || event.button === 0);

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

  // Each entry is a real link (it can be opened in a new tab); a plain click goes through the menu, so that the
  // Chat entry can prepare its address and the collapsed panel closes.
  const items: MenuProps['items'] = model.entries.map((entry) => ({
    key: entry.key,
    icon: model.collapsed || width >= WIDE_MENU_ICONS_PX ? menuIcons[entry.key] : undefined,
    label: (
      <Link
        to={entry.path}
        onClick={(event) => {
          if (isPlainClick(event)) event.preventDefault();
        }}
      >
        {t(entry.labelKey)}
      </Link>
    ),
    onClick: ({ domEvent }) => {
      if (isPlainClick(domEvent)) void go(entry);
    },
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
          { key: 'setting', icon: <UserOutlined aria-hidden />, label: t('header.account.personal') },
          { key: 'logout', icon: <LogoutOutlined aria-hidden />, label: t('header.account.logout') },
        ],
        onClick: ({ key }) => (key === 'logout' ? void logout() : navigate('/setting')),
      }}
    >
      <Button type="text" data-testid="account-menu">
        <UserOutlined aria-hidden />
        <span className="header-username">{user.username}</span>
        <DownOutlined aria-hidden />
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
    <header
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
            icon={open ? <CloseOutlined aria-hidden /> : <MenuOutlined aria-hidden />}
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
                <Button block icon={<UserOutlined aria-hidden />} onClick={() => navigate('/setting')}>
                  {t('header.account.personal')}
                </Button>
                <Button block danger icon={<LogoutOutlined aria-hidden />} onClick={() => void logout()}>
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
    </header>
  );
}
