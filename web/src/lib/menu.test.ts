import { describe, expect, it } from 'vitest';
import { buildMenu } from './menu';

const keys = (model: ReturnType<typeof buildMenu>) => model.entries.map((entry) => entry.key);

describe('buildMenu', () => {
  it('shows only public entries to visitors', () => {
    const model = buildMenu(null, null, 1280);
    expect(keys(model)).toEqual(['home', 'about']);
    expect(model.accountActions).toEqual(['login', 'register']);
    expect(model.collapsed).toBe(false);
  });

  it('shows signed-in entries to ordinary users', () => {
    expect(keys(buildMenu({ role: 1 }, null, 1280))).toEqual(['home', 'token', 'topup', 'log', 'about', 'status']);
  });

  it('shows every entry in spec order to admins', () => {
    expect(keys(buildMenu({ role: 10 }, null, 1280))).toEqual([
      'home',
      'channel',
      'token',
      'redemption',
      'topup',
      'user',
      'log',
      'audit',
      'about',
      'status',
    ]);
    expect(keys(buildMenu({ role: 100 }, null, 1280))).toHaveLength(10);
  });

  it('inserts Chat at index 2 when a chat link is stored', () => {
    expect(keys(buildMenu({ role: 10 }, 'https://chat.example', 1280))[2]).toBe('chat');
    expect(keys(buildMenu(null, 'https://chat.example', 1280))).toEqual(['home', 'chat', 'about']);
    // Index 2 of the full menu: a user without Channel sees Home › Chat › Token (issue 33 point 8).
    expect(keys(buildMenu({ role: 1 }, 'https://chat.example', 1280)).slice(0, 3)).toEqual(['home', 'chat', 'token']);
    expect(keys(buildMenu({ role: 10 }, 'https://chat.example', 1280)).slice(0, 4)).toEqual([
      'home',
      'channel',
      'chat',
      'token',
    ]);
    expect(keys(buildMenu({ role: 1 }, '', 1280))).not.toContain('chat');
  });

  it('collapses at 600 px or less with account buttons', () => {
    expect(buildMenu(null, null, 600).collapsed).toBe(true);
    expect(buildMenu(null, null, 601).collapsed).toBe(false);
    expect(buildMenu({ role: 1 }, null, 375).accountActions).toEqual(['setting', 'logout']);
    expect(buildMenu({ role: 1 }, null, 1280).accountActions).toEqual(['setting', 'logout']);
    expect(buildMenu(null, null, 375).accountActions).toEqual(['login', 'register']);
  });

  it('uses the header.menu translation keys', () => {
    expect(buildMenu(null, null, 1280).entries[0]).toMatchObject({ labelKey: 'header.menu.home', path: '/' });
  });
});
