import { Popover, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { User } from '../../api/types';

/** Usernames longer than this are cut in the list. */
const USERNAME_SHOWN_CHARS = 15;

export const truncateUsername = (username: string): string =>
  username.length > USERNAME_SHOWN_CHARS ? `${username.slice(0, USERNAME_SHOWN_CHARS)}...` : username;

/** The username, cut to 15 characters, with display name and email in a hover popup. */
export function UserNameCell({ user }: { user: User }) {
  const { t } = useTranslation();
  return (
    <Popover
      content={
        <div>
          <div>{user.display_name || user.username}</div>
          <Typography.Text type="secondary">{user.email || t('user.noEmail')}</Typography.Text>
        </div>
      }
    >
      <span>{truncateUsername(user.username)}</span>
    </Popover>
  );
}
