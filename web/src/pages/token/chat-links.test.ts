import { describe, expect, it } from 'vitest';
import { buildChatAppLink, fullKey } from './chat-links';

describe('chat app links', () => {
  it('adds the sk- prefix once', () => {
    expect(fullKey('abc')).toBe('sk-abc');
    expect(fullKey('sk-abc')).toBe('sk-abc');
  });
  it('builds the NextChat settings link on the chat link or the public site', () => {
    const settings = encodeURIComponent('{"key":"sk-k1","url":"https://gw.example"}');
    expect(buildChatAppLink('next', 'k1', 'https://gw.example', 'https://chat.example')).toBe(
      `https://chat.example/#/?settings=${settings}`,
    );
    expect(buildChatAppLink('next', 'k1', 'https://gw.example', null)).toBe(
      `https://app.nextchat.dev/#/?settings=${settings}`,
    );
  });
  it('builds AMA and OpenCat scheme links', () => {
    expect(buildChatAppLink('ama', 'k1', 'https://gw.example')).toBe(
      'ama://set-api-key?server=https%3A%2F%2Fgw.example&key=sk-k1',
    );
    expect(buildChatAppLink('opencat', 'k1', 'https://gw.example')).toBe(
      'opencat://team/join?domain=https%3A%2F%2Fgw.example&token=sk-k1',
    );
  });
  it('builds the LobeChat link with the /v1 base URL', () => {
    const link = buildChatAppLink('lobe', 'k1', 'https://gw.example');
    const settings = JSON.parse(decodeURIComponent(link.split('settings=')[1] ?? '')) as unknown;
    expect(settings).toEqual({ keyVaults: { openai: { apiKey: 'sk-k1', baseURL: 'https://gw.example/v1' } } });
  });
});
