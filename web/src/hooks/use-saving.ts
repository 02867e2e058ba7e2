import { useCallback, useState } from 'react';

/**
 * A form's save in progress: `run` marks it busy while the work runs. A failed call was already shown by
 * the API client's common handler, so it only ends the busy state.
 */
export function useSaving() {
  const [saving, setSaving] = useState(false);
  const run = useCallback(async (work: () => Promise<void>) => {
    setSaving(true);
    try {
      await work();
    } catch {
      // shown by the common handler
    } finally {
      setSaving(false);
    }
  }, []);
  return { saving, run };
}
