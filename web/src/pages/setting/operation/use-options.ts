import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { fetchOptions, updateOption } from '../../../api/option';
import { notify } from '../../../lib/notify';
import { queryKeys } from '../../../lib/query-keys';

export type OptionMap = Record<string, string>;

/** The server's options (secrets never come back); undefined until loaded. */
export function useOptions(): OptionMap | undefined {
  return useQuery({ queryKey: queryKeys.read('option', 'all'), queryFn: fetchOptions }).data;
}

/**
 * Saves options one by one in the given order, stopping at the first failure (shown by the API client); on
 * success says so. Either way the options are read again, so the page shows what the server kept.
 */
export function useSaveOptions() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (changes: ReadonlyArray<readonly [string, string]>) => {
      for (const [key, value] of changes) await updateOption(key, value);
    },
    onSuccess: () => notify.success(t('settingAdmin.toast.saved')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.all('option') }),
  });
}
