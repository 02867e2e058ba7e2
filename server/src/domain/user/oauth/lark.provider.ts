import { callProvider, invalidProviderAnswer, text, type OAuthProvider } from './oauth-provider.js';

/** Lark / Feishu: https://open.feishu.cn/document/authentication-management/access-token/get-user-access-token */
export const larkProvider: OAuthProvider = {
  name: 'lark',
  column: 'lark_id',
  usernamePrefix: 'lark_',
  defaultDisplayName: 'Lark User',
  messages: {
    disabled: { zh: '管理员未开启通过飞书登录以及注册', en: 'Sign-in with Lark is disabled by the administrator' },
    unreachable: { zh: '无法连接至飞书服务器，请稍后重试！', en: 'Cannot reach Lark, please try again later' },
    alreadyBound: { zh: '该飞书账户已被绑定', en: 'This Lark account is already bound' },
  },
  // one-api has no switch for Lark: it is offered whenever a client id is configured.
  isEnabled: (context) => context.options.string('LarkClientId') !== '',
  async identify(context, code) {
    const { config, options } = context;
    const serverAddress = options.string('ServerAddress').replace(/\/+$/, '');
    const token = await callProvider<{ access_token?: unknown }>(
      context,
      this,
      `${config.LARK_OPEN_BASE_URL}/open-apis/authen/v2/oauth/token`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          grant_type: 'authorization_code',
          client_id: options.string('LarkClientId'),
          client_secret: options.string('LarkClientSecret'),
          code,
          redirect_uri: `${serverAddress}/oauth/lark`,
        }),
      },
    );
    const accessToken = text(token.access_token);
    if (!accessToken) throw invalidProviderAnswer();
    const user = await callProvider<{ open_id?: unknown; name?: unknown }>(
      context,
      this,
      `${config.LARK_PASSPORT_BASE_URL}/suite/passport/oauth/userinfo`,
      {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
      },
    );
    const openId = text(user.open_id);
    if (!openId) throw invalidProviderAnswer();
    return { id: openId, displayName: text(user.name) };
  },
};
