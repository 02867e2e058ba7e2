// Part of the API contract: defined with the wire schemas.
export { Role, UserStatus } from '@modelgate/wire';

/** Root's balance at bootstrap, as one-api gives it. */
export const rootInitialQuota = 500_000_000_000_000;
