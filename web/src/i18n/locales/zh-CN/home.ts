/** Home page. */
const home = {
  'home.welcome': '欢迎使用 {{name}}',
  'home.notice': '公告',
  'home.frameTitle': '首页内容',
  'home.overview.system': '系统信息',
  'home.overview.name': '名称',
  'home.overview.version': '版本',
  'home.overview.startTime': '启动时间',
  'home.overview.config': '系统配置',
  'home.overview.emailVerification': '邮箱验证',
  'home.overview.github': 'GitHub 身份验证',
  'home.overview.wechat': '微信身份验证',
  'home.overview.lark': '飞书身份验证',
  'home.overview.turnstile': 'Turnstile 用户校验',
  'home.overview.enabled': '已启用',
  'home.overview.disabled': '未启用',
};
export default home;
