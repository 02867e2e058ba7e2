/** User management. */
const user = {
  'user.list.title': '管理用户',
  'user.add.title': '创建新用户账户',
  'user.edit.title': '更新用户信息',
  'user.edit.selfTitle': '编辑个人信息',
};
export default user;
