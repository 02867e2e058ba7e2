import { api } from './client';
import type { Token } from './types';

/** One page (from 0) of the caller's tokens. */
export const fetchTokenPage = (page: number) => api.get<Token[]>('/api/token/', { params: { p: page } });
