import type { ModelPricing } from '../../api/pricing';

/** Capabilities of a catalogue model; '' means not stated. */
export const CAPABILITIES = [
  'chat',
  'multimodal',
  'text-to-image',
  'text-to-audio',
  'text-to-video',
  'vision',
  'chat-rag',
  'chat-tools',
  'vector',
  'npc',
] as const;
export type Capability = (typeof CAPABILITIES)[number] | '';

/** Capabilities offered by the capability filter (spec section 2). */
export const CAPABILITY_FILTER_OPTIONS: readonly Capability[] = [
  'chat',
  'multimodal',
  'text-to-image',
  'vision',
  'chat-rag',
  'vector',
  'npc',
];

export const PROVIDERS = [
  'openai',
  'anthropic',
  'google',
  'doubao',
  'ernie',
  'moonshot',
  'baichuan',
  'minimax',
  'yi',
  'stepfun',
  'deepseek',
  'zhipu',
  'spark',
  'hunyuan',
  'ai360',
] as const;
export type Provider = (typeof PROVIDERS)[number];

/** One entry of the embedded model catalogue. */
export interface CatalogueEntry {
  /** Model name as the server lists it; also the lookup key. */
  key: string;
  name: string;
  power: Capability;
  /** 1 to 5 stars. */
  popularity: number;
  manufacturer: Provider;
  /** Translation key suffix of the introduction (about.intro.<intro>); absent when there is none. */
  intro?: string;
}

/**
 * A model the server offers, as the catalogue shows it: what the embedded list says of it (a model it lacks has
 * no capability, the provider its name suggests or none, no introduction), and the price the server charges.
 */
export interface CatalogueRow extends Omit<CatalogueEntry, 'manufacturer'> {
  manufacturer: Provider | null;
  pricing: ModelPricing;
}

/** Star maximum and the default popularity. */
export const MAX_POPULARITY = 5;
