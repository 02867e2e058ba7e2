/** Channel status, as one-api numbers it. */
export const ChannelStatus = { Unknown: 0, Enabled: 1, ManuallyDisabled: 2, AutoDisabled: 3 } as const;
export type ChannelStatusValue = (typeof ChannelStatus)[keyof typeof ChannelStatus];

/** Page size of the channel list (one-api's ItemsPerPage). */
export const channelsPerPage = 10;

/** Most rows a channel search answers (one-api had no cap at all). */
export const maxChannelSearchResults = 100;

/** The group a channel serves when none is given. */
export const defaultChannelGroup = 'default';

/** The model a test uses when none is asked for and the channel lists it (one-api's choice). */
export const defaultTestModel = 'gpt-3.5-turbo';

/** Channel type 43 (Proxy) passes requests through by channel id, so it may list no models. */
export const proxyChannelType = 43;

// Column limits of the schema (varchar(191) on MySQL for indexed strings, varchar(32) for groups,
// varchar(1024) for the model mapping, TEXT = 65 535 bytes, i.e. 16 383 four-byte characters).
export const channelLimits = {
  name: 191,
  baseUrl: 191,
  group: 32,
  modelName: 191,
  modelMapping: 1024,
  text: 16_000,
  /** One key line; a Vertex service-account JSON is about 2.5 KB. */
  key: 16_000,
  /** Channels created by one batch request. */
  batchSize: 500,
} as const;
