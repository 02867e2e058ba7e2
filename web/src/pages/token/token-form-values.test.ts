import { describe, expect, it } from 'vitest';
import { emptyTokenForm, formToToken, parseExpiry } from './token-form-values';

describe('token form values', () => {
  it('defaults to unlimited and never expiring', () => {
    const result = formToToken({ ...emptyTokenForm, name: ' t ' });
    expect(result).toEqual({
      ok: true,
      input: {
        name: 't',
        remain_quota: 0,
        expired_time: -1,
        unlimited_quota: true,
        models: '',
        subnet: '',
        rpm_limit: 0,
        tpm_limit: 0,
        concurrency_limit: 0,
        budget_quota: 0,
        budget_period: '',
      },
    });
  });
  it('multiplies dollars by 500000', () => {
    const result = formToToken({ ...emptyTokenForm, name: 't', remain_dollars: 20, unlimited_quota: false });
    expect(result.ok && result.input.remain_quota).toBe(10_000_000);
  });
  it('rejects expiry text that is not a date', () => {
    expect(parseExpiry('soon')).toBeNull();
    expect(formToToken({ ...emptyTokenForm, expiry: 'soon' })).toEqual({ ok: false, error: 'expiry' });
    expect(parseExpiry('2030-01-02 03:04:05')).toBe(Math.ceil(new Date(2030, 0, 2, 3, 4, 5).getTime() / 1000));
  });
});
