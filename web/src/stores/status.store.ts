import type { ServerStatus } from '../api/types';
import { readJson, StorageKey, writeJson } from '../lib/storage-keys';
import { createStore, useStore } from './create-store';

/** The last server status; read from local storage first so name, logo and footer show at once. */
export const statusStore = createStore<ServerStatus>(readJson<ServerStatus>(StorageKey.status, {}));

/** Stores a fresh /api/status answer under the spec's local storage keys. */
export function applyStatus(status: ServerStatus): void {
  writeJson(StorageKey.status, status);
  setOrRemove(StorageKey.systemName, status.system_name);
  setOrRemove(StorageKey.logo, status.logo);
  setOrRemove(StorageKey.footerHtml, status.footer_html);
  setOrRemove(StorageKey.quotaPerUnit, status.quota_per_unit?.toString());
  setOrRemove(StorageKey.displayInCurrency, status.display_in_currency?.toString());
  setOrRemove(StorageKey.chatLink, status.chat_link);
  if (!status.chat_link) localStorage.removeItem(StorageKey.chatUrl);
  statusStore.set(status);
}

function setOrRemove(key: string, value: string | undefined): void {
  if (value === undefined || value === '') localStorage.removeItem(key);
  else localStorage.setItem(key, value);
}

export const useStatus = (): ServerStatus => useStore(statusStore);

/** Stored chat link, or null when the server has none. */
export const useChatLink = (): string | null => useStatus().chat_link || null;
