/** The server's ServerAddress option until an admin sets one (one-api's default too). */
export const DEFAULT_SERVER_ADDRESS = 'http://localhost:3000';

/**
 * The address clients should call: the server address an admin set, else the address the console was served
 * from. The untouched default names the installer's own machine, which no other client can reach.
 */
export function resolveServerAddress(stored: string | undefined, origin: string): string {
  const address = (stored ?? '').trim().replace(/\/+$/, '');
  return address && address !== DEFAULT_SERVER_ADDRESS ? address : origin;
}
