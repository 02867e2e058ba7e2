import type { UserRow } from '../../db/tables.js';
import { limitFieldsOf } from '../limits/limit-fields.js';

/** The user object of the management API: every key present, password and verification code always blank. */
export function presentUser(user: UserRow, options: { includeAccessToken?: boolean } = {}) {
  return {
    id: user.id,
    username: user.username,
    password: '',
    display_name: user.display_name ?? '',
    role: user.role,
    status: user.status,
    email: user.email ?? '',
    github_id: user.github_id ?? '',
    wechat_id: user.wechat_id ?? '',
    lark_id: user.lark_id ?? '',
    oidc_id: user.oidc_id ?? '',
    verification_code: '',
    access_token: options.includeAccessToken ? (user.access_token ?? '') : '',
    quota: Number(user.quota),
    used_quota: Number(user.used_quota),
    request_count: Number(user.request_count),
    group: user.group ?? 'default',
    aff_code: user.aff_code ?? '',
    inviter_id: Number(user.inviter_id ?? 0),
    ...limitFieldsOf(user),
  };
}

export type PresentedUser = ReturnType<typeof presentUser>;

/** What sign-in answers: only id, names, role and status filled, the other keys present with zero values. */
export function presentSignedInUser(user: UserRow): PresentedUser {
  const { id, username, display_name, role, status } = presentUser(user);
  const blank = presentUser({
    ...user,
    email: '',
    github_id: '',
    wechat_id: '',
    lark_id: '',
    oidc_id: '',
    group: '',
    aff_code: '',
  });
  return {
    ...blank,
    quota: 0,
    used_quota: 0,
    request_count: 0,
    inviter_id: 0,
    id,
    username,
    display_name,
    role,
    status,
  };
}
