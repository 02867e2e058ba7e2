import type zh from '../zh-CN/topup';

const topup: Record<keyof typeof zh, string> = {
  'topup.title': 'Top-up',
};
export default topup;
