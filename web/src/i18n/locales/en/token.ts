import type zh from '../zh-CN/token';

const token: Record<keyof typeof zh, string> = {
  'token.list.title': 'My tokens',
  'token.add.title': 'Create token',
  'token.edit.title': 'Update token',
};
export default token;
