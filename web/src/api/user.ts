import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { api, requestEnvelope } from './client';
import type { ProfileUpdate, RegistrationPayload, SessionUser, User } from './types';

/**
 * Signs in; the whole envelope, since an account with a second factor answers `success: false` with
 * `data.require_2fa` until `totp_code` comes too (decision 0030). After a third-party sign-in that waits for
 * the code, `totp_code` alone completes it.
 */
export const login = (credentials: { username?: string; password?: string; totp_code?: string }) =>
  requestEnvelope<SessionUser | { require_2fa?: boolean } | null>({
    url: '/api/user/login',
    method: 'POST',
    data: credentials,
  });

/**
 * Signs in with a passkey (decision 0030): the browser offers the passkeys it holds for this site, no username
 * asked; a passkey counts as the second factor. Throws when the browser prompt is cancelled.
 */
export async function loginWithPasskey(): Promise<SessionUser> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const optionsJSON = await api.post<PublicKeyCredentialRequestOptionsJSON>('/api/user/passkey/login/options');
  const response = await startAuthentication({ optionsJSON });
  return api.post<SessionUser>('/api/user/passkey/login', { response });
}

export const logout = () => api.get<unknown>('/api/user/logout', { silent: true });

export const register = (payload: RegistrationPayload, turnstile: string) =>
  api.post<unknown>('/api/user/register', payload, { params: { turnstile } });

export const sendVerificationCode = (email: string, turnstile: string) =>
  api.get<unknown>('/api/verification', { params: { email, turnstile } });

export const sendResetEmail = (email: string, turnstile: string) =>
  api.get<unknown>('/api/reset_password', { params: { email, turnstile } });

/** Confirms a reset link; answers the new password. */
export const confirmPasswordReset = (email: string, token: string) =>
  api.post<string>('/api/user/reset', { email, token });

export const fetchSelf = () => api.get<User>('/api/user/self');

export const updateSelf = (profile: ProfileUpdate) => api.put<unknown>('/api/user/self', profile);

export const deleteSelf = () => api.delete<unknown>('/api/user/self');

/** Generates a new system access token. */
export const generateAccessToken = () => api.get<string>('/api/user/token');

export const fetchAffCode = () => api.get<string>('/api/user/aff');

export const fetchAvailableModels = () => api.get<string[] | null>('/api/user/available_models', { silent: true });

/** Redeems a top-up code; answers the quota added. */
export const redeemTopUpCode = (key: string) => api.post<number>('/api/user/topup', { key });
