import { describe, expect, it } from 'vitest';
import { DEFAULT_SERVER_ADDRESS, resolveServerAddress } from './server-address';

describe('resolveServerAddress', () => {
  const origin = 'https://gateway.example.com';

  it('uses the page origin while the address is unset or still the default', () => {
    expect(resolveServerAddress(undefined, origin)).toBe(origin);
    expect(resolveServerAddress('', origin)).toBe(origin);
    expect(resolveServerAddress('  ', origin)).toBe(origin);
    expect(resolveServerAddress(DEFAULT_SERVER_ADDRESS, origin)).toBe(origin);
    expect(resolveServerAddress(`${DEFAULT_SERVER_ADDRESS}/`, origin)).toBe(origin);
  });

  it('uses the address an admin set, without a trailing slash', () => {
    expect(resolveServerAddress('https://api.example.com/', origin)).toBe('https://api.example.com');
    expect(resolveServerAddress('http://localhost:8080', origin)).toBe('http://localhost:8080');
  });
});
