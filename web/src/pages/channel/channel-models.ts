import { useQuery } from '@tanstack/react-query';
import { fetchChannelModels } from '../../api/channel';
import { queryKeys } from '../../lib/query-keys';
import { readJson, StorageKey, writeJson } from '../../lib/storage-keys';

export type ChannelModelMap = Record<string, string[] | null>;

/** Channel type → default models: the stored copy at once, then the server's list, which is stored in turn. */
export function useChannelTypeModels(): ChannelModelMap {
  const { data } = useQuery({
    queryKey: queryKeys.read('channel', 'type-models'),
    queryFn: async () => {
      const models = await fetchChannelModels();
      if (models && typeof models === 'object') writeJson(StorageKey.channelModels, models);
      return models;
    },
    // The stored copy stands in when the server's list cannot be read.
    meta: { ignoreFailure: true },
  });
  return data && typeof data === 'object' ? data : readJson<ChannelModelMap>(StorageKey.channelModels, {});
}
