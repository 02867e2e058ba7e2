/** Password reset request and confirmation. */
const reset = {
  'reset.title': '密码重置',
  'reset.form.email': '邮箱地址',
  'reset.form.emailPlaceholder': '输入注册时使用的邮箱地址',
  'reset.submit': '提交',
  'reset.mailSent': '重置邮件发送成功，请检查邮箱！',
  'reset.backToLogin': '返回登录',
  'reset.confirm.title': '密码重置确认',
  'reset.confirm.submit': '提交',
  'reset.confirm.done': '密码重置完成',
  'reset.confirm.newPassword': '新密码',
  'reset.confirm.clickToCopy': '点击即可复制新密码',
  'reset.confirm.copied': '新密码已复制到剪贴板',
};
export default reset;
