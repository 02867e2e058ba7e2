import type { StoredReceipt } from '@modelgate/wire';

/** dall-e-3 at 1024x1792 priced by one-api's ratios: quota per image (model ratio 20 × size factor 2 × 1000). */
export const ratioImageReceipt: StoredReceipt = {
  model: 'dall-e-3',
  source: 'ratio',
  reference: 'one-api built-in ratio table',
  group_ratio: 1.5,
  group_price: false,
  tier: null,
  prompt_tokens: 0,
  quota_per_unit: 500000,
  lines: [{ item: 'image', count: 2, unit_price: 40000, unit: 'quota_per_unit', quota: 120000 }],
  quota: 120000,
  reserved: 120000,
  refunded: 0,
  charged_on_top: 0,
};
