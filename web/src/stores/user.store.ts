import type { SessionUser } from '../api/types';
import { readJson, StorageKey, writeJson } from '../lib/storage-keys';
import { createStore, useStore } from './create-store';

function readStoredUser(): SessionUser | null {
  const user = readJson<SessionUser | null>(StorageKey.user, null);
  return user && typeof user === 'object' && typeof user.username === 'string' ? user : null;
}

/** The signed-in user; a stored user restores the signed-in state at start. */
export const userStore = createStore<SessionUser | null>(readStoredUser());

export function signIn(user: SessionUser): void {
  writeJson(StorageKey.user, user);
  userStore.set(user);
}

export function signOut(): void {
  localStorage.removeItem(StorageKey.user);
  userStore.set(null);
}

/** Re-reads local storage, for tests and for another tab's changes. */
export function reloadUser(): void {
  userStore.set(readStoredUser());
}

export const useUser = (): SessionUser | null => useStore(userStore);
