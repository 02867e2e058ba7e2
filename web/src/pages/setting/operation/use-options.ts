import { useCallback, useEffect, useState } from 'react';
import { fetchOptions, updateOption } from '../../../api/option';

export type OptionMap = Record<string, string>;

/** The server's options (secrets never come back) and a reload after saving. */
export function useOptions() {
  const [options, setOptions] = useState<OptionMap | null>(null);
  const reload = useCallback(async () => {
    try {
      setOptions(await fetchOptions());
    } catch {
      // shown by the common handler
    }
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { options, reload };
}

/** Saves options one by one in the given order; stops at the first failure (already shown to the user). */
export async function saveOptions(changes: ReadonlyArray<readonly [string, string]>): Promise<boolean> {
  try {
    for (const [key, value] of changes) await updateOption(key, value);
    return true;
  } catch {
    return false;
  }
}
