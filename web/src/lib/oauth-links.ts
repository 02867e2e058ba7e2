/** Authorize page of GitHub's OAuth app flow; GitHub redirects back to /oauth/github. */
export function githubAuthorizeUrl(clientId: string, state: string): string {
  const query = new URLSearchParams({ client_id: clientId, state, scope: 'user:email' });
  return `https://github.com/login/oauth/authorize?${query.toString()}`;
}

/** Authorize page of Lark (Feishu); it redirects back to /oauth/lark on this site. */
export function larkAuthorizeUrl(clientId: string, state: string, origin: string): string {
  const query = new URLSearchParams({ client_id: clientId, redirect_uri: `${origin}/oauth/lark`, state });
  return `https://open.feishu.cn/open-apis/authen/v1/authorize?${query.toString()}`;
}
