import type { twoFactorSetup, twoFactorStatus, userSession } from '@modelgate/wire';
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
