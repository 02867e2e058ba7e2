import type zh from '../zh-CN/user';

const user: Record<keyof typeof zh, string> = {
  'user.list.title': 'Manage users',
  'user.add.title': 'Create user account',
  'user.edit.title': 'Update user',
  'user.edit.selfTitle': 'Edit my profile',
};
export default user;
