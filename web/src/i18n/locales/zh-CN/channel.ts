/** Channel management. */
const channel = {
  'channel.list.title': '管理渠道',
  'channel.add.title': '创建新的渠道',
  'channel.edit.title': '更新渠道信息',
};
export default channel;
