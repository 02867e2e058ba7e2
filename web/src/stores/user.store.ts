import type { SessionUser } from '../api/types';
import { readJson, StorageKey, writeJson } from '../lib/storage-keys';
import { createStore, useStore } from './create-store';

function readStoredUser(): SessionUser | null {
  const user = readJson<SessionUser | null>(StorageKey.user, null);
  return user && typeof user === 'object' && typeof user.username === 'string' ? user : null;
}

/** The signed-in user; a stored user restores the signed-in state at start. */
const userStore = createStore<SessionUser | null>(readStoredUser());

export function signIn(user: SessionUser): void {
  writeJson(StorageKey.user, user);
  userStore.set(user);
}

export function signOut(): void {
  localStorage.removeItem(StorageKey.user);
  userStore.set(null);
}

export const useUser = (): SessionUser | null => useStore(userStore);
