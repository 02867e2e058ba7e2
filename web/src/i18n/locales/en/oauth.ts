import type zh from '../zh-CN/oauth';

const oauth: Record<keyof typeof zh, string> = {
  'oauth.processing': 'Processing...',
  'oauth.retrying': 'An error occurred, retry {{retry}} in progress...',
  'oauth.failed': 'Operation failed, redirecting to the settings page...',
  'oauth.bound': 'Bound successfully!',
};
export default oauth;
