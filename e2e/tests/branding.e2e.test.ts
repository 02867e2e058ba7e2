import { beforeAll, describe, expect, it } from 'vitest';
import { settledPopup, signInThroughApi, text } from '../support/browser.ts';
import { useSuite } from '../support/suite.ts';

const suite = useSuite();

/**
 * A view of the console with this file's hostile footer. Chrome reports the footer's `onerror` as a CSP
 * violation while DOMPurify parses it in its inert document (the handler never runs: the test checks that),
 * so that one report is expected here.
 */
async function openView(options: Parameters<typeof suite.open>[0]) {
  const view = await suite.open(options);
  view.allow(/Executing inline event handler violates the following Content Security Policy/);
  return view;
}
const CHAT_LINK = 'https://chat.example.test';
const FRAME_HOME = 'https://home.example.test/welcome';

beforeAll(async () => {
  await suite.stack.setOptions({
    SystemName: 'Gate E2E',
    Logo: `${suite.stack.baseUrl}/logo.svg?brand`,
    Footer:
      '<span id="custom-footer">Footer by <b>E2E</b></span><img src="x" onerror="window.__footerScript = 1"><script>window.__footerScript = 2</script>',
    Notice: '**Maintenance** tonight',
    HomePageContent: '# Custom home\n\nWelcome <em>here</em>.',
  });
});

describe('server branding', () => {
  it('uses the system name as title, the logo as icon, and a sanitised footer', async () => {
    const view = await openView({ width: 1280, language: 'zh-CN' });
    view.allow(/logo\.svg\?brand|Failed to load resource/);
    const { page } = view;
    await page.goto('/');
    await expect.poll(() => page.title()).toBe('Gate E2E');
    await page.getByTestId('system-name').getByText('Gate E2E').waitFor();
    expect(await page.locator('link[rel="icon"]').getAttribute('href')).toBe(`${suite.stack.baseUrl}/logo.svg?brand`);
    await page.locator('#custom-footer').waitFor();
    expect(
      await page.evaluate(() => (window as unknown as { __footerScript?: number }).__footerScript),
    ).toBeUndefined();
    const stored = await page.evaluate(() => ({
      systemName: localStorage.getItem('system_name'),
      footer: localStorage.getItem('footer_html'),
      status: localStorage.getItem('status'),
      quotaPerUnit: localStorage.getItem('quota_per_unit'),
      displayInCurrency: localStorage.getItem('display_in_currency'),
    }));
    expect(stored.systemName).toBe('Gate E2E');
    expect(stored.footer).toContain('custom-footer');
    expect(stored.quotaPerUnit).toBe('500000');
    expect(stored.displayInCurrency).toMatch(/true|false/);
    expect(JSON.parse(stored.status ?? '{}')).toMatchObject({ system_name: 'Gate E2E' });

    // On the next visit name, title and footer show at once, before /api/status answers.
    await page.route('**/api/status', () => undefined);
    await page.reload();
    await expect.poll(() => page.title()).toBe('Gate E2E');
    await page.locator('#custom-footer').waitFor();
    await page.getByTestId('system-name').getByText('Gate E2E').waitFor();
    await page.unroute('**/api/status');
    await view.close();
  });

  it('shows the notice and Markdown home content', async () => {
    const view = await openView({ width: 375, language: 'en' });
    const { page } = view;
    await page.goto('/');
    await page.getByRole('heading', { name: 'Custom home' }).waitFor();
    await page.locator('.ant-alert strong', { hasText: 'Maintenance' }).waitFor();
    await page.getByText(text('en', 'home.notice')).waitFor();
    await view.close();
  });

  it('shows https:// home content as a full-page frame', async () => {
    await suite.stack.setOptions({ HomePageContent: FRAME_HOME });
    try {
      const view = await openView({ width: 1280, language: 'en' });
      await view.context.route(`${FRAME_HOME}**`, (route) =>
        route.fulfill({ contentType: 'text/html', body: '<!doctype html><h1>framed home</h1>' }),
      );
      const { page } = view;
      await page.goto('/');
      const frame = page.locator(`iframe[src="${FRAME_HOME}"]`);
      await frame.waitFor();
      await page.frameLocator(`iframe[src="${FRAME_HOME}"]`).getByText('framed home').waitFor();
      await view.close();
    } finally {
      await suite.stack.setOptions({ HomePageContent: '' });
    }
  });
});

describe('language', () => {
  it('switches in the header and is remembered', async () => {
    const view = await openView({ width: 1280, pinLanguage: false });
    const { page } = view;
    await page.goto('/about');
    await page.getByRole('heading', { name: text('zh-CN', 'about.title') }).waitFor();
    await page.getByTestId('language-switch').click();
    await settledPopup(page, '.ant-dropdown').getByRole('menuitem', { name: 'English' }).click();
    await page.getByRole('heading', { name: text('en', 'about.title') }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('en');
    await page.reload();
    await page.getByRole('heading', { name: text('en', 'about.title') }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await view.close();
  });
});

describe('chat entry', () => {
  // The spec puts Chat at index 2 of the whole menu (Home, Channel, Chat, Token …): a visitor, who sees neither
  // Channel nor Token, has it second.
  it('takes index 2 of the menu, asks visitors to sign in and opens the chat frame for users', async () => {
    await suite.stack.setOptions({ ChatLink: CHAT_LINK });
    const view = await openView({ width: 1280, language: 'zh-CN' });
    await view.context.route(`${CHAT_LINK}/**`, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><h1>chat app</h1>' }),
    );
    const { page } = view;
    await page.goto('/');
    const items = page.locator('.ant-menu-horizontal > .ant-menu-item');
    await expect
      .poll(() => items.allTextContents())
      .toEqual([
        text('zh-CN', 'header.menu.home'),
        text('zh-CN', 'header.menu.chat'),
        text('zh-CN', 'header.menu.about'),
      ]);
    expect(await page.evaluate(() => localStorage.getItem('chat_link'))).toBe(CHAT_LINK);
    await items.filter({ hasText: text('zh-CN', 'header.menu.chat') }).click();
    await page.waitForURL('**/login');

    await signInThroughApi(page, 'root', '123456');
    await page.goto('/token');
    const signedIn = page.locator('.ant-menu-horizontal > .ant-menu-item');
    await expect.poll(async () => (await signedIn.allTextContents())[2]).toBe(text('zh-CN', 'header.menu.chat'));
    await signedIn.nth(2).click();
    await page.waitForURL('**/chat');
    const chatUrl = await page.evaluate(() => localStorage.getItem('chat_url'));
    expect(chatUrl?.startsWith(CHAT_LINK)).toBe(true);
    await page.frameLocator('[data-testid="chat-frame"]').getByText('chat app').waitFor();
    await view.close();
  });
});
