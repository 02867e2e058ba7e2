import { callProvider, invalidProviderAnswer, text, type OAuthProvider } from './oauth-provider.js';

/** GitHub OAuth apps: https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps */
export const githubProvider: OAuthProvider = {
  name: 'github',
  column: 'github_id',
  usernamePrefix: 'github_',
  defaultDisplayName: 'GitHub User',
  messages: {
    disabled: {
      zh: '管理员未开启通过 GitHub 登录以及注册',
      en: 'Sign-in with GitHub is disabled by the administrator',
    },
    unreachable: { zh: '无法连接至 GitHub 服务器，请稍后重试！', en: 'Cannot reach GitHub, please try again later' },
    alreadyBound: { zh: '该 GitHub 账户已被绑定', en: 'This GitHub account is already bound' },
  },
  isEnabled: (context) => context.options.bool('GitHubOAuthEnabled'),
  async identify(context, code) {
    const { config, options } = context;
    const token = await callProvider<{ access_token?: unknown }>(
      context,
      this,
      `${config.GITHUB_OAUTH_BASE_URL}/login/oauth/access_token`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          client_id: options.string('GitHubClientId'),
          client_secret: options.string('GitHubClientSecret'),
          code,
        }),
      },
    );
    const accessToken = text(token.access_token);
    if (!accessToken) throw invalidProviderAnswer();
    const user = await callProvider<{ login?: unknown; name?: unknown; email?: unknown }>(
      context,
      this,
      `${config.GITHUB_API_BASE_URL}/user`,
      {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
      },
    );
    const login = text(user.login);
    if (!login) throw invalidProviderAnswer();
    return { id: login, displayName: text(user.name), email: text(user.email) };
  },
};
