import { describe, expect, it } from 'vitest';
import { shouldShowNewVersion } from './version';

describe('shouldShowNewVersion', () => {
  it('needs a build version and a real, different server version', () => {
    expect(shouldShowNewVersion('v1.2.0', 'v1.1.0')).toBe(true);
    expect(shouldShowNewVersion('v1.1.0', 'v1.1.0')).toBe(false);
    expect(shouldShowNewVersion('v1.2.0', undefined)).toBe(false);
    expect(shouldShowNewVersion('v0.0.0', 'v1.1.0')).toBe(false);
    expect(shouldShowNewVersion(undefined, 'v1.1.0')).toBe(false);
  });
});
