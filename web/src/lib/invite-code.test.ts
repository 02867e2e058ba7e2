import { beforeEach, describe, expect, it } from 'vitest';
import { keepInviteCodeOfVisit } from './invite-code';

describe('keepInviteCodeOfVisit', () => {
  beforeEach(() => localStorage.clear());

  it('keeps the code of a /register?aff= visit at start', () => {
    keepInviteCodeOfVisit({ pathname: '/register', search: '?aff=Zx9a' });
    expect(localStorage.getItem('aff')).toBe('Zx9a');
  });

  it('leaves a kept code alone on other pages and on a register visit without one', () => {
    localStorage.setItem('aff', 'Ab12');
    keepInviteCodeOfVisit({ pathname: '/login', search: '?aff=Zx9a' });
    keepInviteCodeOfVisit({ pathname: '/register', search: '' });
    expect(localStorage.getItem('aff')).toBe('Ab12');
  });
});
