import type zh from '../zh-CN/header';

const header: Record<keyof typeof zh, string> = {
  'header.menu.home': 'Home',
  'header.menu.channel': 'Channel',
  'header.menu.chat': 'Chat',
  'header.menu.token': 'Token',
  'header.menu.redemption': 'Redemption',
  'header.menu.audit': 'Audit',
  'header.menu.topup': 'Top-up',
  'header.menu.user': 'User',
  'header.menu.log': 'Log',
  'header.menu.about': 'Model list',
  'header.menu.status': 'Service status',
  'header.account.login': 'Login',
  'header.account.register': 'Register',
  'header.account.personal': 'Personal center',
  'header.account.logout': 'Logout',
  'header.logoutSuccess': 'Logout successful!',
  'header.toggleMenu': 'Toggle menu',
  'header.language.switch': 'Switch language',
  'header.language.zh-CN': '简体中文',
  'header.language.en': 'English',
  'header.language.short.zh-CN': '中文',
  'header.language.short.en': 'EN',
  'header.language.switchNamed': '{{current}}, switch language',
};
export default header;
