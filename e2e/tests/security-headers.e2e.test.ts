import type { BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../server/test/api-client.ts';
import { expectToast, label, signInThroughApi, text } from '../support/browser.ts';
import { useSuite } from '../support/suite.ts';
import { createUser } from '../support/users.ts';

const suite = useSuite();

/** Records every Content-Security-Policy violation of the console's pages into `window.__cspViolations`. */
async function recordViolations(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(
        `${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
}

describe('the console under its Content-Security-Policy', () => {
  it('renders visitor and root pages with no policy violation', async () => {
    const view = await suite.open({ width: 1280, language: 'zh-CN' });
    const { page, context } = view;
    await recordViolations(context);
    const document = await page.goto('/');
    const policy = document?.headers()['content-security-policy'] ?? '';
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-eval');
    expect(document?.headers()['x-frame-options']).toBe('DENY');
    await page.getByText(text('zh-CN', 'home.welcome', { name: 'ModelGate' })).waitFor();
    for (const path of ['/login', '/register', '/about']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
    }
    await signInThroughApi(page, 'root', '123456');
    for (const path of ['/token', '/channel', '/log', '/user', '/redemption', '/setting', '/topup', '/status', '/']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
    }
    // The page ran: antd's runtime styles and the hashed inline script were allowed.
    await page.getByTestId('footer').waitFor();
    // Expressions as strings: the e2e suite is typed for Node, without the DOM's globals.
    expect(await page.evaluate<number>("document.querySelectorAll('style').length")).toBeGreaterThan(0);
    expect(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)).toEqual([]);

    // The policy is enforced and the recorder sees it: an injected inline script is refused.
    view.allow(/Content Security Policy/);
    await page.evaluate(`(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__injected = true';
      document.body.append(script);
    })()`);
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations.length))
      .toBe(1);
    expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined();
    await view.close();
  });
});

describe('changing one’s own password in the console', () => {
  it('asks for the current password, keeps this session and ends the others', async () => {
    const user = await createUser(suite.stack);
    const elsewhere = suite.stack.client();
    await elsewhere.login(user.username, user.password);
    const view = await suite.open({ width: 1280, language: 'en' });
    const { page, context } = view;
    await recordViolations(context);
    await signInThroughApi(page, user.username, user.password);
    await page.goto('/setting');
    await page.getByLabel(text('en', 'setting.personal.password'), { exact: true }).fill('brandnew123');
    const original = page.getByLabel(text('en', 'setting.personal.originalPassword'));
    await original.waitFor();
    await page.getByRole('button', { name: label('en', 'common.submit') }).click();
    await page.getByText(text('en', 'setting.personal.originalPasswordRequired')).waitFor();
    await original.fill(user.password);
    await page.getByRole('button', { name: label('en', 'common.submit') }).click();
    await expectToast(page, text('en', 'setting.personal.updated'));
    await new ApiClient(suite.stack.baseUrl).login(user.username, 'brandnew123');
    expect((await elsewhere.get('/api/user/self')).status).toBe(401);
    // The console's own session goes on.
    const self = await page.evaluate(async () => (await fetch('/api/user/self')).status);
    expect(self).toBe(200);
    expect(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)).toEqual([]);
    await view.close();
  });
});
