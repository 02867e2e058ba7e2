import { fetchChannelModels } from '../../api/channel';
import { readJson, StorageKey, writeJson } from '../../lib/storage-keys';

export type ChannelModelMap = Record<string, string[] | null>;

/** The stored copy of type → default models, for an instant first render. */
export const storedChannelModels = (): ChannelModelMap => readJson<ChannelModelMap>(StorageKey.channelModels, {});

/** Refreshes type → default models from the server, keeping the stored copy when the call fails. */
export async function loadChannelModels(): Promise<ChannelModelMap> {
  try {
    const models = await fetchChannelModels();
    if (models && typeof models === 'object') {
      writeJson(StorageKey.channelModels, models);
      return models;
    }
  } catch {
    // fall back to the stored copy
  }
  return storedChannelModels();
}
