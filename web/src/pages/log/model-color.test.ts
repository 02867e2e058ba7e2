import { describe, expect, it } from 'vitest';
import { MODEL_PALETTE, modelColor } from './model-color';

describe('modelColor', () => {
  it('gives a model the same palette colour every time, whatever else is charted', () => {
    expect(MODEL_PALETTE).toContain(modelColor('gpt-4o'));
    expect(modelColor('gpt-4o')).toBe(modelColor('gpt-4o'));
    // Not by position: the colours of a set of models do not depend on which other models are present.
    const alone = ['claude-sonnet-4'].map(modelColor);
    const together = ['a-model', 'b-model', 'claude-sonnet-4'].map(modelColor);
    expect(together[2]).toBe(alone[0]);
  });

  it('spreads common names over the palette', () => {
    const names = [
      'gpt-4o',
      'gpt-4o-mini',
      'claude-sonnet-4',
      'claude-opus-4',
      'gemini-2.5-pro',
      'deepseek-chat',
      'qwen-max',
    ];
    expect(new Set(names.map(modelColor)).size).toBeGreaterThanOrEqual(4);
  });
});
