import { createHmac } from 'node:crypto';
import type { Page } from 'playwright-core';

/** The stack's SESSION_SECRET (e2e/support/stack.ts), with which the server signs its session cookie. */
const SESSION_SECRET = 'e2e-session-secret-0123456789abcdef';

/**
 * The browser's session as it is `minutes` after its sign-in, as a moved clock would show it: its cookie re-signed
 * with `authAt` that much earlier, so the server asks for re-authentication before a price write or a new access
 * token (decision 0030). The server process cannot have its clock moved from a browser test. The page's calls are
 * let finish first: an answer that rewrites the session (its CSRF secret) would otherwise put the fresh time back.
 */
export async function ageSession(page: Page, minutes = 6): Promise<void> {
  await page.waitForLoadState('networkidle');
  const context = page.context();
  const cookie = (await context.cookies()).find((candidate) => candidate.name === 'session');
  if (!cookie) throw new Error('no session cookie');
  const signed = decodeURIComponent(cookie.value);
  const payload = signed.slice(0, signed.lastIndexOf('.'));
  const session = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { authAt?: number };
  if (!session.authAt) throw new Error('the session cookie has no authAt');
  session.authAt -= minutes * 60;
  const value = Buffer.from(JSON.stringify(session)).toString('base64url');
  const signature = createHmac('sha256', SESSION_SECRET).update(value).digest('base64').replace(/=+$/, '');
  await context.addCookies([{ ...cookie, value: encodeURIComponent(`${value}.${signature}`) }]);
}
