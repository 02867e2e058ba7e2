import { api, requestEnvelope } from './client';
import type { SessionUser } from './types';

export type OAuthProvider = 'github' | 'lark';

export const fetchOAuthState = () => api.get<string>('/api/oauth/state');

/** Third-party callback: message 'bind' means an account was bound, otherwise data is the user. */
export const sendOAuthCode = (provider: OAuthProvider, code: string, state: string) =>
  requestEnvelope<SessionUser | null>({ url: `/api/oauth/${provider}`, method: 'GET', params: { code, state } });

/**
 * WeChat sign-in with the code the official account sent. Like every third-party callback it needs a fresh
 * one-time state of this session: the server clears it on each try, so each try fetches a new one.
 */
export const wechatLogin = async (code: string) => {
  const state = await fetchOAuthState();
  return api.get<SessionUser>('/api/oauth/wechat', { params: { code, state } });
};

/** Binds WeChat to the signed-in account; needs a fresh one-time state, as sign-in does. */
export const wechatBind = async (code: string) => {
  const state = await fetchOAuthState();
  return api.get<unknown>('/api/oauth/wechat/bind', { params: { code, state } });
};

export const emailBind = (email: string, code: string) =>
  api.get<unknown>('/api/oauth/email/bind', { params: { email, code } });
