import { ChannelType } from './channel.constants.js';

const knownTypes: ReadonlySet<number> = new Set(
  Object.values(ChannelType).filter((type) => type !== ChannelType.Unknown),
);

/** Whether a number is one of one-api's channel types (0, "unknown", cannot be stored). */
export const isKnownChannelType = (type: number) => knownTypes.has(type);

/** Types whose upstream has no default address: the base URL must be given (Azure, Custom, OpenAI-compatible). */
export const typesRequiringBaseUrl: ReadonlySet<number> = new Set([
  ChannelType.Azure,
  ChannelType.Custom,
  ChannelType.OpenAICompatible,
]);
