/** Service status. */
const status = {
  'status.title': '服务状态',
  'status.refresh': '刷新',
  'status.models': '模型',
  'status.channels': '渠道',
  'status.column.model': '模型',
  'status.column.available': '当前可用',
  'status.column.lastHour': '最近一小时',
  'status.column.lastDay': '最近一天',
  'status.column.channel': '渠道 ID',
  'status.column.name': '名称',
  'status.column.status': '状态',
  'status.available': '可用',
  'status.unavailable': '不可用',
  'status.noTraffic': '无请求',
  'status.successRate': '成功率 {{rate}}%',
  'status.latency': '中位延迟 {{seconds}} 秒',
  'status.requests': '{{count}} 次请求',
};
export default status;
