import type zh from '../zh-CN/channel';

const channel: Record<keyof typeof zh, string> = {
  'channel.list.title': 'Manage channels',
  'channel.add.title': 'Create channel',
  'channel.edit.title': 'Update channel',
};
export default channel;
