import type zh from '../zh-CN/common';

const common: Record<keyof typeof zh, string> = {
  'common.loading': 'Loading {{prompt}} ...',
  'common.loadingPrompt.page': 'page',
  'common.defaultSystemName': 'ModelGate',
  'common.submit': 'Submit',
  'common.cancel': 'Cancel',
  'common.backHome': 'Back to home',
  'common.unknown': 'Unknown',
  'common.invalidTime': 'Invalid time',
  'common.notFound': 'Page does not exist, check your browser address',
  'common.routeError.title': 'Unexpected Application Error!',
  'common.noPermission': 'You are not allowed to see this page',
  'common.comingSoon': 'This page is being built',
  'common.copyFailed': 'Cannot copy, please copy manually',
  'common.codeSent': 'Verification code sent successfully, check your mailbox!',
  'common.retryIn': 'Retry ({{seconds}})',
  'common.turnstilePending': 'Please retry in a few seconds, the check is running!',
  'common.wechat.hint':
    'Scan the QR code with WeChat, follow the account and send "验证码" to get a code (valid for 3 minutes)',
  'common.wechat.codePlaceholder': 'Verification code',
  'common.wechat.codeRequired': 'Please enter the verification code',
  'common.error.tooManyRequests': 'Error: too many requests, please try again later!',
  'common.error.internal': 'Error: internal server error, please contact the administrator!',
  'common.error.demoSite': 'This site is for demonstration only and has no server!',
  'common.error.requestFailed': 'Request failed',
  'common.error.statusLoad': 'Unable to connect to the server normally!',
  'common.newVersion': 'New version available: {{version}}. Refresh the page with Shift + F5',
  'common.goBack': 'Go back',
  'common.loadRefused': 'This record cannot be read, so it cannot be edited',
};
export default common;
