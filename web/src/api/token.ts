import type { token } from '@modelgate/wire';
import type { z } from 'zod';
import { api } from './client';
import type { Token } from './types';

/** One page (from 0) of the caller's tokens. */
export const fetchTokenPage = (page: number) => api.get<Token[]>('/api/token/', { params: { p: page } });

/** A token row as the list and the form read it. */
export type TokenDetails = z.infer<typeof token>;

export type TokenOrder = '' | 'remain_quota' | 'used_quota';

export interface TokenInput {
  id?: number;
  name: string;
  remain_quota: number;
  expired_time: number;
  unlimited_quota: boolean;
  models: string;
  subnet: string;
  /** Issue 31: limits (0 = none) and a budget per period ('' = none). */
  rpm_limit?: number;
  tpm_limit?: number;
  concurrency_limit?: number;
  budget_quota?: number;
  budget_period?: '' | 'day' | 'week' | 'month';
  /** What the edit page loaded: the server moves the remaining quota by the difference, keeping charges since. */
  original_remain_quota?: number;
}

/** One page (from 0) of the caller's tokens in a server sort order. */
export const fetchTokenList = (page: number, order: TokenOrder) =>
  api.get<TokenDetails[]>('/api/token/', { params: { p: page, order } });
export const searchTokens = (keyword: string) => api.get<TokenDetails[]>('/api/token/search', { params: { keyword } });
export const fetchToken = (id: number) => api.get<TokenDetails>(`/api/token/${id}`);
export const createToken = (input: TokenInput) => api.post<TokenDetails>('/api/token/', input);
export const updateToken = (input: TokenInput) => api.put<TokenDetails>('/api/token/', input);
export const setTokenStatus = (id: number, status: number) =>
  api.put<TokenDetails>('/api/token/', { id, status }, { params: { status_only: true } });
export const deleteToken = (id: number) => api.delete<unknown>(`/api/token/${id}`);
