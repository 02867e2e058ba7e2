import { describe, expect, test } from 'vitest';
import { TypicalOutput } from './typical-output.js';

describe('a model typical output', () => {
  test('is unknown before four completions, then the 90th percentile of the last 32', () => {
    const typical = new TypicalOutput();
    for (const tokens of [10, 20, 30]) typical.record('m', tokens);
    expect(typical.of('m')).toBeUndefined();
    typical.record('m', 40);
    expect(typical.of('m')).toBe(40);
    for (let index = 1; index <= 32; index++) typical.record('m', index * 10);
    // 10..320: the 29th of 32 sorted is 290.
    expect(typical.of('m')).toBe(290);
    // One long answer moves the percentile only once it is among the top tenth.
    typical.record('m', 100_000);
    expect(typical.of('m')).toBe(300);
    expect(typical.of('other')).toBeUndefined();
  });

  test('forgets the oldest model beyond a thousand (model names come from clients)', () => {
    const typical = new TypicalOutput();
    for (let model = 0; model <= 1000; model++) for (let index = 0; index < 4; index++) typical.record(`m${model}`, 5);
    expect(typical.of('m0')).toBeUndefined();
    expect(typical.of('m1000')).toBe(5);
  });
});
