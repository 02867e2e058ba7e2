import type zh from '../zh-CN/log';

const log: Record<keyof typeof zh, string> = {
  'log.title': 'Usage logs',
};
export default log;
