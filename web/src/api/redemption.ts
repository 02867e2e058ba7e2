import type { redemption } from '@modelgate/wire';
import type { z } from 'zod';
import { api } from './client';

export type Redemption = z.infer<typeof redemption>;

export const fetchRedemptionPage = (page: number) => api.get<Redemption[]>('/api/redemption/', { params: { p: page } });
export const searchRedemptions = (keyword: string) =>
  api.get<Redemption[]>('/api/redemption/search', { params: { keyword } });
export const fetchRedemption = (id: number) => api.get<Redemption>(`/api/redemption/${id}`);
/** Creates `count` codes; answers their keys. */
export const createRedemptions = (input: { name: string; quota: number; count: number }) =>
  api.post<string[]>('/api/redemption/', input);
export const updateRedemption = (input: { id: number; name: string; quota: number }) =>
  api.put<Redemption>('/api/redemption/', input);
export const setRedemptionStatus = (id: number, status: number) =>
  api.put<Redemption>('/api/redemption/', { id, status }, { params: { status_only: true } });
export const deleteRedemption = (id: number) => api.delete<unknown>(`/api/redemption/${id}`);
