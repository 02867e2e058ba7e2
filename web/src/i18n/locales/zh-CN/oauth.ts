/** GitHub and Lark sign-in callbacks. */
const oauth = {
  'oauth.processing': '处理中...',
  'oauth.retrying': '出现错误，第 {{retry}} 次重试中...',
  'oauth.failed': '操作失败，重定向至设置页面中...',
  'oauth.bound': '绑定成功！',
};
export default oauth;
