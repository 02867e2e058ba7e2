import { describe, expect, it } from 'vitest';
import { decideCallbackStep } from './callback-retry';

describe('decideCallbackStep', () => {
  it('gives up at entry (retry count 0) and goes to /setting', () => {
    expect(decideCallbackStep(0)).toEqual({ kind: 'give-up' });
  });

  it('waits 2000 ms times the retry number otherwise', () => {
    expect(decideCallbackStep(1)).toEqual({ kind: 'retry', retry: 2, delayMs: 4000 });
    expect(decideCallbackStep(2)).toEqual({ kind: 'retry', retry: 3, delayMs: 6000 });
  });
});
