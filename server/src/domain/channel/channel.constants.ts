/** Channel status, as one-api numbers it. */
export const ChannelStatus = { Unknown: 0, Enabled: 1, ManuallyDisabled: 2, AutoDisabled: 3 } as const;

/** Page size of the channel list (one-api's ItemsPerPage). */
export const channelsPerPage = 10;

/** Most rows a channel search answers (one-api had no cap at all). */
export const maxChannelSearchResults = 100;

/** The model a test uses when none is asked for and the channel lists it (one-api's choice). */
export const defaultTestModel = 'gpt-3.5-turbo';

/** Channel type 43 (Proxy) passes requests through by channel id, so it may list no models. */
export const proxyChannelType = 43;

// Part of the API contract: defined with the wire schemas.
export { channelLimits, defaultChannelGroup } from '@modelgate/wire';
