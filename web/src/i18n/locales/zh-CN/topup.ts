/** Top-up. */
const topup = {
  'topup.title': '充值',
  'topup.consumed': '总消耗额度',
  'topup.remaining': '剩余额度',
  'topup.codePlaceholder': '请输入兑换码',
  'topup.codeRequired': '请输入充值码！',
  'topup.redeem': '兑换',
  'topup.buy': '获取兑换码',
  'topup.linkMissing': '超级管理员未设置充值链接！',
  'topup.success': '充值成功！',
  'topup.confirm': '已充值 {{amount}}，当前余额 {{balance}}',
  'topup.budget.day': '预算：今日已用 {{spent}} / {{quota}}',
  'topup.budget.week': '预算：本周已用 {{spent}} / {{quota}}',
  'topup.budget.month': '预算：本月已用 {{spent}} / {{quota}}',
};
export default topup;
