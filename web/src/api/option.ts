import type { optionEntry, releaseInfo } from '@modelgate/wire';
import type { z } from 'zod';
import { api } from './client';

export type OptionEntry = z.infer<typeof optionEntry>;

/** Every option the server returns (secrets never come back), as a key → value map. */
export async function fetchOptions(): Promise<Record<string, string>> {
  const entries = await api.get<OptionEntry[]>('/api/option/');
  return Object.fromEntries((entries ?? []).map((entry) => [entry.key, entry.value]));
}

export const updateOption = (key: string, value: string) => api.put<unknown>('/api/option/', { key, value });

export type ReleaseInfo = z.infer<typeof releaseInfo>;
