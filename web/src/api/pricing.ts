import type { ModelPricing, PricingList } from '@modelgate/wire';
import { api } from './client';

export type { ModelPricing, PricingList };

/** The models the caller's group can call (the default group's for visitors) and what each costs. */
export const fetchPricing = () => api.get<PricingList>('/api/pricing', { silent: true });
