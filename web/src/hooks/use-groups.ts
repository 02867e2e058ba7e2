import { useQuery } from '@tanstack/react-query';
import { fetchGroups } from '../api/channel';
import { queryKeys } from '../lib/query-keys';

/** The group names (keys of the GroupRatio option); empty until loaded or when the load failed (already shown). */
export function useGroups(enabled = true): string[] {
  const { data } = useQuery({
    queryKey: queryKeys.read('option', 'groups'),
    queryFn: async () => (await fetchGroups()) ?? [],
    enabled,
  });
  return data ?? [];
}
