import type { passkey, twoFactorSetup, twoFactorStatus, userSession } from '@modelgate/wire';
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type { z } from 'zod';
import { api } from '../../../api/client';

export type UserSession = z.infer<typeof userSession>;
export type TwoFactorSetup = z.infer<typeof twoFactorSetup>;
export type TwoFactorStatus = z.infer<typeof twoFactorStatus>;

/** The caller's signed-in sessions (decision 0002). */
export const fetchSessions = async () => (await api.get<UserSession[] | null>('/api/user/sessions')) ?? [];

export const revokeSession = (id: string) => api.delete<null>(`/api/user/sessions/${encodeURIComponent(id)}`);

export const revokeOtherSessions = () => api.post<{ ended: number }>('/api/user/sessions/logout_others');

/** Second factor (decision 0030). */
export const fetchTwoFactorStatus = () => api.get<TwoFactorStatus | null>('/api/user/2fa');

export const setUpTwoFactor = () => api.post<TwoFactorSetup>('/api/user/2fa/setup');

export const enableTwoFactor = (code: string) => api.post<null>('/api/user/2fa/enable', { code });

export const disableTwoFactor = (code: string) => api.post<null>('/api/user/2fa/disable', { code });

export type Passkey = z.infer<typeof passkey>;

/** Passkeys (WebAuthn, decision 0030). */
export const fetchPasskeys = async (silent = false) =>
  (await api.get<Passkey[] | null>('/api/user/passkeys', { silent })) ?? [];

export const deletePasskey = (id: number) => api.delete<null>(`/api/user/passkeys/${id}`);

/** Asks the browser's authenticator for a new passkey and adds it under `name`. */
export async function addPasskey(name: string): Promise<Passkey> {
  const { startRegistration } = await import('@simplewebauthn/browser');
  const optionsJSON = await api.post<PublicKeyCredentialCreationOptionsJSON>('/api/user/passkey/register/options');
  const response = await startRegistration({ optionsJSON });
  return api.post<Passkey>('/api/user/passkey/register', { response, name });
}

/** Confirms who is behind this session again with one of the user's passkeys (POST /api/user/reauth). */
export async function reauthWithPasskey(): Promise<void> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const optionsJSON = await api.post<PublicKeyCredentialRequestOptionsJSON>('/api/user/passkey/reauth/options');
  const passkey = await startAuthentication({ optionsJSON });
  await api.post<unknown>('/api/user/reauth', { passkey });
}
