import { createHmac } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { sessionSecret } from '../support/stack.ts';

type Session = { authAt?: number };

async function sessionCookie(context: BrowserContext) {
  const cookie = (await context.cookies()).find((candidate) => candidate.name === 'session');
  if (!cookie) throw new Error('no session cookie');
  const signed = decodeURIComponent(cookie.value);
  const payload = signed.slice(0, signed.lastIndexOf('.'));
  const session = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Session;
  if (!session.authAt) throw new Error('the session cookie has no authAt');
  return { cookie, session: session as Session & { authAt: number } };
}

/**
 * The browser's session as it is `minutes` after its sign-in, as a moved clock would show it: its cookie re-signed
 * with `authAt` that much earlier, so the server asks for re-authentication before a price write or a new access
 * token (decision 0030). The server process cannot have its clock moved from a browser test. An answer to a call
 * the page made before (its first call also writes the session's CSRF secret) may still set the cookie it was sent
 * with, putting the fresh time back: the cookie is read again once the page is quiet, and set again if so.
 */
export async function ageSession(page: Page, minutes = 6): Promise<void> {
  const context = page.context();
  await page.waitForLoadState('networkidle');
  const target = (await sessionCookie(context)).session.authAt - minutes * 60;
  for (let attempt = 0; attempt < 5; attempt++) {
    const { cookie, session } = await sessionCookie(context);
    if (session.authAt <= target && attempt > 0) return;
    const value = Buffer.from(JSON.stringify({ ...session, authAt: target })).toString('base64url');
    const signature = createHmac('sha256', sessionSecret).update(value).digest('base64').replace(/=+$/, '');
    // Replaced, not added beside it: a cookie set with a domain would be a second one, sent after the first.
    await context.clearCookies({ name: 'session' });
    await context.addCookies([
      {
        name: cookie.name,
        value: encodeURIComponent(`${value}.${signature}`),
        url: new URL('/', page.url()).href,
        httpOnly: cookie.httpOnly,
        sameSite: cookie.sameSite,
        expires: cookie.expires,
      },
    ]);
    await page.waitForTimeout(300);
    await page.waitForLoadState('networkidle');
  }
  throw new Error('the session cookie kept being set back to a fresh sign-in time');
}
