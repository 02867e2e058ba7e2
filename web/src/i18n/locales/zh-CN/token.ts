/** Tokens. */
const token = {
  'token.list.title': '我的令牌',
  'token.add.title': '创建新的令牌',
  'token.edit.title': '更新令牌信息',
};
export default token;
