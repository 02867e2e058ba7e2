import type zh from '../zh-CN/status';

const status: Record<keyof typeof zh, string> = {
  'status.title': 'Service status',
  'status.refresh': 'Refresh',
  'status.models': 'Models',
  'status.channels': 'Channels',
  'status.column.model': 'Model',
  'status.column.available': 'Served now',
  'status.column.lastHour': 'Last hour',
  'status.column.lastDay': 'Last day',
  'status.column.channel': 'Channel ID',
  'status.column.name': 'Name',
  'status.column.status': 'Status',
  'status.available': 'Available',
  'status.unavailable': 'Unavailable',
  'status.noTraffic': 'No requests',
  'status.successRate': 'Success {{rate}}%',
  'status.latency.atMost': 'Median ≤ {{value}}',
  'status.latency.between': 'Median {{from}}–{{to}}',
  'status.latency.above': 'Median > {{value}}',
  'status.unit.ms': '{{value}} ms',
  'status.unit.s': '{{value}} s',
  'status.requests': '{{count}} requests',
};
export default status;
