import { api } from './client';

export interface OptionEntry {
  key: string;
  value: string;
}

/** Every option the server returns (secrets never come back), as a key → value map. */
export async function fetchOptions(): Promise<Record<string, string>> {
  const entries = await api.get<OptionEntry[]>('/api/option/');
  return Object.fromEntries((entries ?? []).map((entry) => [entry.key, entry.value]));
}

export const updateOption = (key: string, value: string) => api.put<unknown>('/api/option/', { key, value });

export interface ReleaseInfo {
  tag_name: string;
  body: string;
}
