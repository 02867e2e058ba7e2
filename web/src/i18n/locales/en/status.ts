import type zh from '../zh-CN/status';

const status: Record<keyof typeof zh, string> = {
  'status.title': 'Service status',
};
export default status;
