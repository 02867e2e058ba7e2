import { describe, expect, it } from 'vitest';
import { priceFormValues, priceOfForm } from './price-form-values';

describe('the price form', () => {
  it('turns filled inputs into a price and leaves empty ones out', () => {
    const values = {
      input: 3,
      output: 15,
      cache_read: null,
      per_call: 0.01,
      tiers: [{ above: 200_000, input: 6, output: null }],
    };
    expect(priceOfForm(values)).toEqual({
      price: { input: 3, output: 15, per_call: 0.01, tiers: [{ above: 200_000, input: 6 }] },
    });
    expect(priceOfForm({ tiers: [] })).toEqual({ price: {} });
  });

  it('reads a price back into the form', () => {
    const price = { input: 1, tiers: [{ above: 10, output: 2 }] };
    expect(priceOfForm(priceFormValues(price))).toEqual({ price });
    expect(priceFormValues(null)).toEqual({ tiers: [] });
  });

  it('refuses what the server refuses, field by field', () => {
    const refused = priceOfForm({
      input: -1,
      output: 200_000,
      per_image: 20_000,
      tiers: [{ above: null, input: 1 }, { above: 1.5 }],
    });
    expect(refused).toEqual({
      errors: expect.arrayContaining([
        { name: ['input'], reason: 'negative' },
        { name: ['output'], reason: 'tooBig', limit: 100_000 },
        { name: ['per_image'], reason: 'tooBig', limit: 10_000 },
        { name: ['tiers', 0, 'above'], reason: 'threshold' },
        { name: ['tiers', 1, 'above'], reason: 'threshold' },
      ]),
    });
    expect(priceOfForm({ tiers: [{ above: 5 }, { above: 5 }] })).toEqual({
      errors: [{ name: ['tiers'], reason: 'duplicateThresholds' }],
    });
  });
});
