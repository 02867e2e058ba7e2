import type { OptionPreview, optionEntry, releaseInfo } from '@modelgate/wire';
import type { z } from 'zod';
import { api } from './client';

export type OptionEntry = z.infer<typeof optionEntry>;

/** Where the option map keeps a ratio table's built-in text (read-only, never saved). */
export const builtInKey = (key: string) => `${key}#built_in`;

/**
 * Every option the server returns (secrets never come back), as a key → value map; a ratio table the admin
 * never stored is '' there, its built-in text under `builtInKey(key)`.
 */
export async function fetchOptions(): Promise<Record<string, string>> {
  const entries = await api.get<OptionEntry[]>('/api/option/');
  return Object.fromEntries(
    (entries ?? []).flatMap((entry) => [
      [entry.key, entry.value],
      ...(entry.built_in === undefined ? [] : [[builtInKey(entry.key), entry.built_in]]),
    ]),
  );
}

/** The models whose price these option values would move (nothing is saved). */
export const previewOptions = (options: ReadonlyArray<readonly [string, string]>) =>
  api.post<OptionPreview>('/api/option/preview', { options: options.map(([key, value]) => ({ key, value })) });

export const updateOption = (key: string, value: string) => api.put<unknown>('/api/option/', { key, value });

export type ReleaseInfo = z.infer<typeof releaseInfo>;
