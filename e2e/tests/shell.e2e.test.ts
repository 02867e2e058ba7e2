import { describe, expect, it } from 'vitest';
import { label, MATRIX, signInThroughApi, text } from '../support/browser.ts';
import { useSuite } from '../support/suite.ts';

const suite = useSuite();

describe.each(MATRIX)('shell at $width px in $language', ({ width, language }) => {
  const narrow = width <= 600;

  it('shows the header, home and footer to visitors', async () => {
    const view = await suite.open({ width, language });
    const { page } = view;
    await page.goto('/');
    await expect.poll(() => page.title()).toBe('ModelGate');
    await page.getByText(text(language, 'home.welcome', { name: 'ModelGate' })).waitFor();
    await page.getByTestId('footer').getByText('ModelGate').waitFor();
    if (narrow) {
      expect(await page.locator('.ant-menu-horizontal').count()).toBe(0);
      await page.getByTestId('menu-toggle').click();
      const panel = page.getByTestId('mobile-menu');
      await panel.getByText(text(language, 'header.menu.about')).waitFor();
      expect(await panel.locator('.ant-menu-item').allTextContents()).toEqual([
        text(language, 'header.menu.home'),
        text(language, 'header.menu.about'),
      ]);
      await panel.getByRole('button', { name: label(language, 'header.account.register') }).click();
      await page.waitForURL('**/register');
    } else {
      expect(await page.locator('.ant-menu-horizontal .ant-menu-item').allTextContents()).toEqual([
        text(language, 'header.menu.home'),
        text(language, 'header.menu.about'),
      ]);
      await page.getByRole('button', { name: label(language, 'header.account.login') }).click();
      await page.waitForURL('**/login');
    }
    await view.close();
  });

  it('shows every menu entry to root, and the user dropdown or collapsed logout', async () => {
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, 'root', '123456');
    await page.goto('/setting');
    await page.getByText(text(language, 'setting.personal.profile')).waitFor();
    const expected = ['home', 'channel', 'token', 'redemption', 'topup', 'user', 'log', 'audit', 'about', 'status'].map(
      (key) => text(language, `header.menu.${key}`),
    );
    if (narrow) {
      await page.getByTestId('menu-toggle').click();
      const panel = page.getByTestId('mobile-menu');
      expect(await panel.locator('.ant-menu-item').allTextContents()).toEqual(expected);
      await panel.getByRole('button', { name: label(language, 'header.account.logout') }).waitFor();
    } else {
      const items = page.locator('.ant-menu-horizontal > .ant-menu-item');
      await expect.poll(() => items.count()).toBe(expected.length);
      expect(await items.allTextContents()).toEqual(expected);
      await page.getByTestId('account-menu').click();
      await page.getByRole('menuitem', { name: text(language, 'header.account.personal') }).waitFor();
      await page.getByRole('menuitem', { name: text(language, 'header.account.logout') }).waitFor();
    }
    await view.close();
  });

  it('shows the not-found page for unknown paths', async () => {
    const view = await suite.open({ width, language });
    await view.page.goto('/no/such/page');
    await view.page.getByText(text(language, 'common.notFound')).waitFor();
    await view.close();
  });

  it('sends visitors of private pages to /login', async () => {
    const view = await suite.open({ width, language });
    for (const path of ['/token', '/channel', '/setting', '/log', '/status', '/topup', '/redemption', '/user']) {
      await view.page.goto(path);
      await view.page.waitForURL('**/login');
    }
    await view.close();
  });
});
