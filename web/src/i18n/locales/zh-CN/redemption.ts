/** Redemption codes. */
const redemption = {
  'redemption.list.title': '管理兑换码',
  'redemption.add.title': '创建新的兑换码',
  'redemption.edit.title': '更新兑换码信息',
};
export default redemption;
