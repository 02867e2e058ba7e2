import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { exactLabel, text, type Language } from '../support/browser.ts';
import { useSuite } from '../support/suite.ts';
import { createUser, uniqueName } from '../support/users.ts';
import { ROW_CELL, rowWith } from './page-helpers.ts';

const suite = useSuite();

/** The server's refusal of a wrong password, in each language (server/src/domain/user/user.auth.ts). */
const WRONG_PASSWORD: Record<Language, string> = {
  'zh-CN': '用户名或密码错误，或用户已被封禁',
  en: 'Wrong username or password, or the user is banned',
};

/** Browsers whose own language is the other one: the console's choice must win over the browser's header. */
const CASES: ReadonlyArray<{ console: Language; browser: string }> = [
  { console: 'zh-CN', browser: 'en-US' },
  { console: 'en', browser: 'zh-CN' },
];

let spender: { username: string; password: string };

beforeAll(async () => {
  spender = await createUser(suite.stack);
  const codes = (
    await suite.stack.root.post('/api/redemption/', { name: uniqueName('lc'), quota: 1_000_000, count: 1 })
  ).body.data as string[];
  const client = suite.stack.client();
  await client.login(spender.username, spender.password);
  expect((await client.post('/api/user/topup', { key: codes[0] })).body.success).toBe(true);
});

/** A page in a browser of one language whose console is set to another (stored as the console stores it). */
async function openIn(
  consoleLanguage: Language,
  browserLocale: string,
): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await suite.browser.newContext({
    baseURL: suite.stack.baseUrl,
    locale: browserLocale,
    viewport: { width: 1280, height: 900 },
  });
  await context.addInitScript((value) => localStorage.setItem('language', value), consoleLanguage);
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  return { page, close: () => context.close() };
}

describe.each(CASES)('the $console console in a $browser browser', ({ console: language, browser }) => {
  const t = (key: string, values?: Record<string, string | number>) => text(language, key, values);

  it("sends the console's language and gets the server's messages in it", async () => {
    const { page, close } = await openIn(language, browser);
    await page.goto('/login');
    await page.getByPlaceholder(t('login.form.usernamePlaceholder')).fill(spender.username);
    await page.getByPlaceholder(t('login.form.passwordPlaceholder')).fill('not-the-password');
    const sent = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/user/login');
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/user/login');
    await page
      .locator('.auth-card')
      .getByRole('button', { name: exactLabel(language, 'login.submit') })
      .click();
    expect((await sent).headers()['accept-language']).toBe(language);
    expect(((await (await answered).json()) as { message: string }).message).toBe(WRONG_PASSWORD[language]);
    await page.locator('.ant-notification-notice', { hasText: WRONG_PASSWORD[language] }).waitFor();
    await close();
  });

  it("shows a stored log's Chinese detail in the console's language", async () => {
    const { page, close } = await openIn(language, browser);
    await page.goto('/login');
    await page.getByPlaceholder(t('login.form.usernamePlaceholder')).fill(spender.username);
    await page.getByPlaceholder(t('login.form.passwordPlaceholder')).fill(spender.password);
    await page
      .locator('.auth-card')
      .getByRole('button', { name: exactLabel(language, 'login.submit') })
      .click();
    await page.waitForURL(/\/token$/);
    await page.goto('/log');
    // The redeem wrote '通过兑换码充值 ＄2.000000 额度' (with currency display on, the default).
    const stored = '通过兑换码充值 ＄2.000000 额度';
    const shown = language === 'en' ? 'Topped up $2.000000 of quota with a redemption code' : stored;
    const row = rowWith(page, shown);
    await row.waitFor();
    expect((await row.locator(ROW_CELL).allInnerTexts()).some((cell) => cell.includes(shown))).toBe(true);
    await close();
  });
});
