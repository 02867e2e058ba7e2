import { resolveServerAddress } from '../lib/server-address';
import { useStatus } from '../stores/status.store';

/** The address shown and copied for API clients: the admin's server address, else this page's origin. */
export function useServerAddress(): string {
  return resolveServerAddress(useStatus().server_address, window.location.origin);
}
