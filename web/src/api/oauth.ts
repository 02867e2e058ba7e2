import { api, requestEnvelope } from './client';
import type { SessionUser } from './types';

export type OAuthProvider = 'github' | 'lark';

export const fetchOAuthState = () => api.get<string>('/api/oauth/state');

/** Third-party callback: message 'bind' means an account was bound, otherwise data is the user. */
export const sendOAuthCode = (provider: OAuthProvider, code: string, state: string) =>
  requestEnvelope<SessionUser | null>({ url: `/api/oauth/${provider}`, method: 'GET', params: { code, state } });

export const wechatLogin = (code: string) => api.get<SessionUser>('/api/oauth/wechat', { params: { code } });

export const wechatBind = (code: string) => api.get<unknown>('/api/oauth/wechat/bind', { params: { code } });

export const emailBind = (email: string, code: string) =>
  api.get<unknown>('/api/oauth/email/bind', { params: { email, code } });
