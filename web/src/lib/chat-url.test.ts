import { describe, expect, it } from 'vitest';
import { buildChatUrl } from './chat-url';

describe('buildChatUrl', () => {
  it('passes the default token key and the site address as settings', () => {
    const url = buildChatUrl('https://chat.example', [{ name: 'default', key: 'abc' }], 'https://gw.example');
    expect(url.startsWith('https://chat.example/#/?settings=')).toBe(true);
    const settings = JSON.parse(decodeURIComponent(url.split('settings=')[1] ?? '')) as unknown;
    expect(settings).toEqual({ key: 'sk-abc', url: 'https://gw.example' });
  });

  it('falls back to the bare chat link without a default token', () => {
    expect(buildChatUrl('https://chat.example', [{ name: 'other', key: 'x' }], 'https://gw')).toBe(
      'https://chat.example',
    );
  });
});
