import { AppError } from '../../../lib/errors.js';
import { callProvider, text, type OAuthProvider } from './oauth-provider.js';

/** The WeChat login server (songquanpeng/wechat-server): it exchanges the code shown to the user for an id. */
export const wechatProvider: OAuthProvider = {
  name: 'wechat',
  column: 'wechat_id',
  usernamePrefix: 'wechat_',
  defaultDisplayName: 'WeChat User',
  messages: {
    disabled: { zh: '管理员未开启通过微信登录以及注册', en: 'Sign-in with WeChat is disabled by the administrator' },
    unreachable: {
      zh: '无法连接至微信服务器，请稍后重试！',
      en: 'Cannot reach the WeChat server, please try again later',
    },
    alreadyBound: { zh: '该微信账号已被绑定', en: 'This WeChat account is already bound' },
  },
  isEnabled: (context) => context.options.bool('WeChatAuthEnabled'),
  async identify(context, code) {
    const { options } = context;
    const base = options.string('WeChatServerAddress').replace(/\/+$/, '');
    const answer = await callProvider<{ success?: unknown; message?: unknown; data?: unknown }>(
      context,
      this,
      `${base}/api/wechat/user?code=${encodeURIComponent(code)}`,
      { headers: { authorization: options.string('WeChatServerToken'), accept: 'application/json' } },
    );
    if (answer.success !== true) {
      const message = text(answer.message) || '验证码错误或已过期';
      throw new AppError('wechat_refused', { zh: message, en: message });
    }
    const wechatId = text(answer.data);
    if (!wechatId)
      throw new AppError('verification_code_invalid', {
        zh: '验证码错误或已过期',
        en: 'The verification code is wrong or has expired',
      });
    return { id: wechatId, displayName: '' };
  },
};
