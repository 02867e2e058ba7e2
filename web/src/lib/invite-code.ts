import { StorageKey } from './storage-keys';

/** Keeps an invite code (?aff= of /register) in local storage for the registration that follows. */
export function keepInviteCode(aff: string | null): void {
  if (aff) localStorage.setItem(StorageKey.aff, aff);
}

/** At start: a /register?aff= visit keeps its code before the register page's chunk has loaded. */
export function keepInviteCodeOfVisit({ pathname, search }: Pick<Location, 'pathname' | 'search'>): void {
  if (pathname === '/register') keepInviteCode(new URLSearchParams(search).get('aff'));
}
