import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectToast, settledPopup, signInThroughApi, text } from '../support/browser.ts';
import { useSuite } from '../support/suite.ts';
import { createUser } from '../support/users.ts';

const suite = useSuite();

/** Gets an OAuth state for the browser's session, as the sign-in button does. */
const browserState = (page: Page) =>
  page.evaluate(async () => ((await (await fetch('/api/oauth/state')).json()) as { data: string }).data);

describe('third-party callbacks', () => {
  it.each(['github', 'lark'])(
    'a failed /oauth/%s goes to /setting at once (and so to /login for visitors)',
    async (provider) => {
      const view = await suite.open({ width: 1280, language: 'zh-CN' });
      view.allow(/status of 4\d\d/);
      const { page } = view;
      await page.goto(`/oauth/${provider}?code=nope&state=nope`);
      await page.waitForURL('**/login');
      await page.locator('.ant-notification-notice-error').first().waitFor();
      await view.close();
    },
  );

  it('signs a new GitHub user in and lands on /', async () => {
    await suite.stack.setOptions({
      GitHubClientId: suite.stack.oauth.clientId,
      GitHubClientSecret: suite.stack.oauth.clientSecret,
      GitHubOAuthEnabled: true,
    });
    suite.stack.oauth.github.set('good-code', { login: 'octocat', name: 'Octo Cat', email: 'octo@example.test' });
    const view = await suite.open({ width: 375, language: 'en' });
    const { page } = view;
    await page.goto('/login');
    // The button appears because the status says GitHub sign-in is on; it leads to GitHub's authorize page.
    await page.getByRole('button', { name: text('en', 'login.github') }).click();
    await page.waitForURL(/github\.com\/login\/oauth\/authorize/);
    const authorize = new URL(page.url());
    expect(authorize.searchParams.get('client_id')).toBe(suite.stack.oauth.clientId);
    const state = authorize.searchParams.get('state') ?? '';
    expect(state).not.toBe('');
    await page.goto(`${suite.stack.baseUrl}/oauth/github?code=good-code&state=${state}`);
    await page.waitForURL(`${suite.stack.baseUrl}/`);
    await expectToast(page, text('en', 'login.success'));
    const user = await page.evaluate(
      () => JSON.parse(localStorage.getItem('user') ?? 'null') as { username: string } | null,
    );
    expect(user?.username).toMatch(/^github_/);
    await view.close();
  });

  it("binds Lark for a signed-in user ('bind') and goes to /setting", async () => {
    await suite.stack.setOptions({
      LarkClientId: suite.stack.oauth.clientId,
      LarkClientSecret: suite.stack.oauth.clientSecret,
    });
    suite.stack.oauth.lark.set('lark-code', { open_id: 'ou_e2e', name: 'Lark Person' });
    const user = await createUser(suite.stack);
    const view = await suite.open({ width: 1280, language: 'zh-CN' });
    const { page } = view;
    await signInThroughApi(page, user.username, user.password);
    await page.goto('/setting');
    await page.getByRole('button', { name: text('zh-CN', 'setting.personal.bindLark') }).waitFor();
    const state = await browserState(page);
    await page.goto(`/oauth/lark?code=lark-code&state=${state}`);
    await page.waitForURL('**/setting');
    await expectToast(page, text('zh-CN', 'oauth.bound'));
    await view.close();
  });

  it('signs in with a WeChat code from the QR modal', async () => {
    await suite.stack.setOptions({
      WeChatServerAddress: suite.stack.oauth.url,
      WeChatServerToken: suite.stack.oauth.wechatToken,
      WeChatAuthEnabled: true,
    });
    suite.stack.oauth.wechat.set('WX1234', 'wechat-e2e-id');
    const view = await suite.open({ width: 1280, language: 'zh-CN' });
    const { page } = view;
    await page.goto('/login');
    await page.getByRole('button', { name: text('zh-CN', 'login.wechat') }).click();
    const modal = settledPopup(page, '.ant-modal');
    await modal.getByText(text('zh-CN', 'common.wechat.hint')).waitFor();
    await modal.getByPlaceholder(text('zh-CN', 'common.wechat.codePlaceholder')).fill('WX1234');
    await modal.locator('.ant-btn-primary').click();
    await page.waitForURL(`${suite.stack.baseUrl}/`);
    await expectToast(page, text('zh-CN', 'login.success'));
    await view.close();
  });
});
