import { describe, expect, it } from 'vitest';
import { githubAuthorizeUrl, larkAuthorizeUrl } from './oauth-links';

describe('authorize links', () => {
  it('passes client id and state to GitHub', () => {
    const url = new URL(githubAuthorizeUrl('abc', 'st8'));
    expect(url.origin + url.pathname).toBe('https://github.com/login/oauth/authorize');
    expect(url.searchParams.get('client_id')).toBe('abc');
    expect(url.searchParams.get('state')).toBe('st8');
  });

  it('sends Lark back to /oauth/lark on this site', () => {
    const url = new URL(larkAuthorizeUrl('cli_1', 'st8', 'https://gw.example'));
    expect(url.searchParams.get('redirect_uri')).toBe('https://gw.example/oauth/lark');
    expect(url.searchParams.get('client_id')).toBe('cli_1');
    expect(url.searchParams.get('state')).toBe('st8');
  });
});
