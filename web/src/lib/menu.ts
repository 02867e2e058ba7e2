import { isAdmin, type RoleHolder } from './roles';

/** Width at or below which the header menu collapses behind a toggle. */
export const NARROW_SCREEN_PX = 600;
/** Position of the Chat entry in the full menu, before entries hidden from the viewer drop out (spec §2). */
const CHAT_ENTRY_INDEX = 2;

type Visibility = 'all' | 'signedIn' | 'admin';

export interface MenuEntry {
  key: string;
  /** Translation key of the label. */
  labelKey: string;
  path: string;
  visibility: Visibility;
}

type AccountAction = 'login' | 'register' | 'logout' | 'setting';

export interface MenuModel {
  entries: MenuEntry[];
  collapsed: boolean;
  /** Buttons under the collapsed menu, or the account area of the wide header. */
  accountActions: AccountAction[];
}

const entry = (key: string, path: string, visibility: Visibility): MenuEntry => ({
  key,
  labelKey: `header.menu.${key}`,
  path,
  visibility,
});

/** The header entries in spec order, before visibility rules apply. */
export const MENU_ENTRIES: readonly MenuEntry[] = [
  entry('home', '/', 'all'),
  entry('channel', '/channel', 'admin'),
  entry('token', '/token', 'signedIn'),
  entry('redemption', '/redemption', 'admin'),
  entry('topup', '/topup', 'signedIn'),
  entry('user', '/user', 'admin'),
  entry('log', '/log', 'signedIn'),
  entry('audit', '/audit', 'admin'),
  entry('about', '/about', 'all'),
  entry('status', '/status', 'signedIn'),
];

export const CHAT_ENTRY: MenuEntry = entry('chat', '/chat', 'all');

function visibleTo(visibility: Visibility, user: RoleHolder | null): boolean {
  if (visibility === 'all') return true;
  if (visibility === 'signedIn') return user !== null;
  return isAdmin(user);
}

/**
 * Menu rules of spec section 2: the Chat entry inserted at index 2 of the full list when a chat link is
 * stored (so Home › Channel › Chat › Token for admins, Home › Chat › Token for users, as one-api), entries
 * filtered by who is signed in, and the collapsed layout at 600 px or less.
 */
export function buildMenu(user: RoleHolder | null, chatLink: string | null, widthPx: number): MenuModel {
  const all = [...MENU_ENTRIES];
  if (chatLink) all.splice(CHAT_ENTRY_INDEX, 0, CHAT_ENTRY);
  const entries = all.filter((item) => visibleTo(item.visibility, user));
  const collapsed = widthPx <= NARROW_SCREEN_PX;
  const accountActions: AccountAction[] = user === null ? ['login', 'register'] : ['setting', 'logout'];
  return { entries, collapsed, accountActions };
}
