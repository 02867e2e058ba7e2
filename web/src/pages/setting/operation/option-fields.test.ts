import { describe, expect, it } from 'vitest';
import { changedOptions, fieldValues, joinWhitelist, type OptionField } from './option-fields';

const fields: OptionField[] = [
  { key: 'ServerAddress', kind: 'text' },
  { key: 'RetryTimes', kind: 'number' },
  { key: 'SMTPToken', kind: 'secret' },
];

describe('option fields', () => {
  it('saves only changed values, secrets only when typed, the address normalised', () => {
    const original = { ServerAddress: 'https://a.example', RetryTimes: '0' };
    expect(
      changedOptions(fields, { ServerAddress: 'https://a.example/', RetryTimes: 0, SMTPToken: '' }, original),
    ).toEqual([]);
    expect(
      changedOptions(fields, { ServerAddress: 'https://b.example//', RetryTimes: 2, SMTPToken: 's' }, original),
    ).toEqual([
      ['ServerAddress', 'https://b.example'],
      ['RetryTimes', '2'],
      ['SMTPToken', 's'],
    ]);
  });
  it('reads numbers as numbers and never fills secrets', () => {
    expect(fieldValues(fields, { ServerAddress: 'x', RetryTimes: '3', SMTPToken: 'leak' })).toEqual({
      ServerAddress: 'x',
      RetryTimes: 3,
      SMTPToken: '',
    });
  });
  it('drops empty and duplicate whitelist entries', () => {
    expect(joinWhitelist(['a.com', ' ', 'b.com', 'a.com '])).toBe('a.com,b.com');
  });
});
