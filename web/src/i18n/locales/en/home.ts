import type zh from '../zh-CN/home';

const home: Record<keyof typeof zh, string> = {
  'home.welcome': 'Welcome to {{name}}',
  'home.notice': 'Notice',
  'home.frameTitle': 'Home page content',
  'home.overview.system': 'System',
  'home.overview.name': 'Name',
  'home.overview.version': 'Version',
  'home.overview.startTime': 'Started at',
  'home.overview.config': 'Configuration',
  'home.overview.emailVerification': 'Email verification',
  'home.overview.github': 'GitHub sign-in',
  'home.overview.wechat': 'WeChat sign-in',
  'home.overview.lark': 'Lark sign-in',
  'home.overview.turnstile': 'Turnstile bot check',
  'home.overview.enabled': 'On',
  'home.overview.disabled': 'Off',
};
export default home;
