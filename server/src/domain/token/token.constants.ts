/** Token statuses, as one-api numbers them. */
export const TokenStatus = { Enabled: 1, Disabled: 2, Expired: 3, Exhausted: 4 } as const;

// Part of the API contract: defined with the wire schemas.
export { NeverExpires } from '@modelgate/wire';

/** one-api's limit on a token name, in UTF-8 bytes. */
export const maxTokenNameBytes = 30;

/** How many tokens one user may hold; one-api had no cap, so a script could fill the table. */
export const maxTokensPerUser = 1000;

/** Page size of the management lists (one-api's ItemsPerPage). */
export const itemsPerPage = 10;

/** Cap on unpaginated search answers (one-api's MaxRecentItems). */
export const maxSearchResults = 100;
