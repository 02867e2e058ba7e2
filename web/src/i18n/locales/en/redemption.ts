import type zh from '../zh-CN/redemption';

const redemption: Record<keyof typeof zh, string> = {
  'redemption.list.title': 'Manage redemption codes',
  'redemption.add.title': 'Create redemption codes',
  'redemption.edit.title': 'Update redemption code',
};
export default redemption;
