import { callProvider, invalidProviderAnswer, text, type OAuthProvider } from './oauth-provider.js';

/** Any OpenID Connect provider, its endpoints taken from the options (the well-known URL is not fetched). */
export const oidcProvider: OAuthProvider = {
  name: 'oidc',
  column: 'oidc_id',
  usernamePrefix: 'oidc_',
  defaultDisplayName: 'OIDC User',
  messages: {
    disabled: { zh: '管理员未开启通过 OIDC 登录以及注册', en: 'Sign-in with OIDC is disabled by the administrator' },
    unreachable: {
      zh: '无法连接至 OIDC 服务器，请稍后重试！',
      en: 'Cannot reach the OIDC server, please try again later',
    },
    alreadyBound: { zh: '该 OIDC 账户已被绑定', en: 'This OIDC account is already bound' },
  },
  isEnabled: (context) => context.options.bool('OidcEnabled'),
  async identify(context, code) {
    const { options } = context;
    const serverAddress = options.string('ServerAddress').replace(/\/+$/, '');
    const token = await callProvider<{ access_token?: unknown }>(context, this, options.string('OidcTokenEndpoint'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        client_id: options.string('OidcClientId'),
        client_secret: options.string('OidcClientSecret'),
        code,
        grant_type: 'authorization_code',
        redirect_uri: `${serverAddress}/oauth/oidc`,
      }),
    });
    const accessToken = text(token.access_token);
    if (!accessToken) throw invalidProviderAnswer();
    const user = await callProvider<Record<string, unknown>>(context, this, options.string('OidcUserinfoEndpoint'), {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    });
    const subject = text(user.sub);
    if (!subject) throw invalidProviderAnswer();
    return {
      id: subject,
      displayName: text(user.name),
      email: text(user.email),
      preferredUsername: text(user.preferred_username),
    };
  },
};
