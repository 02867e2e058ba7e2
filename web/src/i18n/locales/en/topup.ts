import type zh from '../zh-CN/topup';

const topup: Record<keyof typeof zh, string> = {
  'topup.title': 'Top-up',
  'topup.consumed': 'Total consumed',
  'topup.remaining': 'Remaining',
  'topup.codePlaceholder': 'Enter a redemption code',
  'topup.codeRequired': 'Please enter a top-up code!',
  'topup.redeem': 'Redeem',
  'topup.buy': 'Get a code',
  'topup.linkMissing': 'Super admin has not set a top-up link!',
  'topup.success': 'Top-up succeeded!',
  'topup.confirm': 'Added {{amount}}; balance now {{balance}}',
  'topup.budget.day': 'Budget: {{spent}} of {{quota}} spent today',
  'topup.budget.week': 'Budget: {{spent}} of {{quota}} spent this week',
  'topup.budget.month': 'Budget: {{spent}} of {{quota}} spent this month',
};
export default topup;
