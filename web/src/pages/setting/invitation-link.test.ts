import { describe, expect, it } from 'vitest';
import { invitationLink } from './invitation-link';

describe('invitationLink', () => {
  it('points at the register page with the aff code', () => {
    expect(invitationLink('https://gw.example', 'Ab12')).toBe('https://gw.example/register?aff=Ab12');
  });
});
