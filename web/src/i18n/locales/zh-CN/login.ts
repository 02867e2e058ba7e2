/** Sign-in page. */
const login = {
  'login.title': '登录 {{name}}',
  'login.expired': '未登录或登录已过期，请重新登录！',
  'login.form.username': '用户名 / 邮箱',
  'login.form.usernamePlaceholder': '用户名或邮箱地址',
  'login.form.usernameRequired': '请输入用户名或邮箱地址',
  'login.form.password': '密码',
  'login.form.passwordPlaceholder': '密码',
  'login.form.passwordRequired': '请输入密码',
  'login.submit': '登录',
  'login.success': '登录成功！',
  'login.defaultPasswordWarning': '请立刻修改默认密码！',
  'login.forgot': '忘记密码？',
  'login.resetLink': '点击重置',
  'login.noAccount': '没有账户？',
  'login.registerLink': '点击注册',
  'login.otherMethods': '其他登录方式',
  'login.github': '使用 GitHub 登录',
  'login.wechat': '使用微信登录',
  'login.wechatTitle': '微信扫码登录',
  'login.lark': '使用飞书登录',
};
export default login;
