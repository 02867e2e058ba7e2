import type zh from '../zh-CN/audit';

const audit: Record<keyof typeof zh, string> = {
  'audit.title': 'Audit trail',
  'audit.column.time': 'Time',
  'audit.column.actor': 'Actor',
  'audit.column.action': 'Action',
  'audit.column.target': 'Target',
  'audit.column.changes': 'Changes (before → after)',
  'audit.filter.actor': 'Actor (username or ID)',
  'audit.filter.action': 'Action',
  'audit.filter.actionPlaceholder': 'e.g. user.update, or user for every user action',
  'audit.filter.targetType': 'Target type',
  'audit.filter.time': 'Time range',
  'audit.filter.apply': 'Search',
  'audit.target.user': 'User',
  'audit.target.channel': 'Channel',
  'audit.target.option': 'Setting',
  'audit.target.price': 'Price',
  'audit.target.redemption': 'Redemption code',
  'audit.target.log': 'Logs',
  'audit.export': 'Export CSV',
  'audit.verify.button': 'Verify hash chain',
  'audit.verify.ok': 'The hash chain is intact: {{count}} entries checked',
  'audit.verify.bad':
    'The hash chain is broken: entry {{id}} was altered, or the one before it deleted ({{count}} intact before it)',
  'audit.verify.tail': 'The hash chain is broken: its last entries were deleted ({{count}} remaining entries intact)',
  'audit.noChange': 'No change',
  'audit.moreChanges': '{{count}} more changes',
  'audit.total': '{{count}} entries',
};

export default audit;
