import { api } from './client';
import type { User } from './types';

export type UserOrder = '' | 'quota' | 'used_quota' | 'request_count';
export type ManageAction = 'promote' | 'demote' | 'delete' | 'enable' | 'disable';

export const fetchUserPage = (page: number, order: UserOrder) =>
  api.get<User[]>('/api/user/', { params: { p: page, order } });
export const searchUsers = (keyword: string) => api.get<User[]>('/api/user/search', { params: { keyword } });
export const fetchUser = (id: number) => api.get<User>(`/api/user/${id}`);
export const createUser = (input: { username: string; display_name: string; password: string }) =>
  api.post<unknown>('/api/user/', input);
/**
 * Admin update of another user: integer id and quota. `original_quota` is the quota the page loaded: the server
 * moves the balance by the difference, keeping charges made since.
 */
export const updateUser = (
  input: Partial<User> & { id: number; password?: string; original_password?: string; original_quota?: number },
) => api.put<User | undefined>('/api/user/', input);
export const manageUser = (username: string, action: ManageAction) =>
  api.post<Pick<User, 'role' | 'status'>>('/api/user/manage', { username, action });
