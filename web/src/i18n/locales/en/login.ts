import type zh from '../zh-CN/login';

const login: Record<keyof typeof zh, string> = {
  'login.title': 'Log in to {{name}}',
  'login.expired': 'Not logged in or login expired, please log in again!',
  'login.form.username': 'Username / email',
  'login.form.usernamePlaceholder': 'Username or email address',
  'login.form.usernameRequired': 'Please enter your username or email address',
  'login.form.password': 'Password',
  'login.form.passwordPlaceholder': 'Password',
  'login.form.passwordRequired': 'Please enter your password',
  'login.submit': 'Log in',
  'login.success': 'Login successful!',
  'login.defaultPasswordWarning': 'Please change the default password at once!',
  'login.forgot': 'Forgot your password?',
  'login.resetLink': 'Reset it',
  'login.noAccount': 'No account?',
  'login.registerLink': 'Register',
  'login.otherMethods': 'Other ways to log in',
  'login.github': 'Log in with GitHub',
  'login.wechat': 'Log in with WeChat',
  'login.wechatTitle': 'Log in with WeChat',
  'login.lark': 'Log in with Lark',
};
export default login;
