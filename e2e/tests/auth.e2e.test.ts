import { describe, expect, it } from 'vitest';
import {
  expectToast,
  exactLabel,
  label,
  signInThroughApi,
  text,
  type Language,
  VIEWPORTS,
} from '../support/browser.ts';
import { useSuite } from '../support/suite.ts';
import { createUser, uniqueName } from '../support/users.ts';
import { signOutThroughMenu } from './page-helpers.ts';

const suite = useSuite();

describe.each(VIEWPORTS)('sign-in at $width px in $language', ({ width, language }) => {
  it('shows the server message for a wrong password', async () => {
    const view = await suite.open({ width, language });
    const { page } = view;
    await page.goto('/login');
    await page.getByPlaceholder(text(language, 'login.form.usernamePlaceholder')).fill('root');
    await page.getByPlaceholder(text(language, 'login.form.passwordPlaceholder')).fill('wrong-password');
    await page
      .locator('.auth-card')
      .getByRole('button', { name: exactLabel(language, 'login.submit') })
      .click();
    const toast = page.locator('.ant-notification-notice-error');
    await toast.waitFor();
    expect(page.url()).toContain('/login');
    await view.close();
  });

  it('lands an ordinary user on /token and logs out to /login', async () => {
    const user = await createUser(suite.stack);
    const view = await suite.open({ width, language });
    const { page } = view;
    await page.goto('/login');
    await page.getByPlaceholder(text(language, 'login.form.usernamePlaceholder')).fill(user.username);
    await page.getByPlaceholder(text(language, 'login.form.passwordPlaceholder')).fill(user.password);
    await page
      .locator('.auth-card')
      .getByRole('button', { name: exactLabel(language, 'login.submit') })
      .click();
    await page.waitForURL('**/token');
    await expectToast(page, text(language, 'login.success'));
    const stored = await page.evaluate(
      () => JSON.parse(localStorage.getItem('user') ?? 'null') as { username: string } | null,
    );
    expect(stored?.username).toBe(user.username);
    await signOutThroughMenu(page, width, language);
    await expectToast(page, text(language, 'header.logoutSuccess'));
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
    await view.close();
  });

  it('explains an expired session and sends a 401 to /login?expired=true', async () => {
    const view = await suite.open({ width, language });
    const { page } = view;
    view.allow(/status of 401/);
    await page.goto('/about');
    // A stored user whose session the server does not know.
    await page.evaluate(() =>
      localStorage.setItem('user', JSON.stringify({ id: 99, username: 'ghost', display_name: '', role: 1, status: 1 })),
    );
    await page.goto('/setting');
    await page.waitForURL('**/login?expired=true');
    await page.getByText(text(language, 'login.expired')).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
    await view.close();
  });
});

describe('root with the default password', () => {
  it('goes to /user/edit with a warning', async () => {
    const view = await suite.open({ width: 1280, language: 'zh-CN' });
    const { page } = view;
    await page.goto('/login');
    await page.getByPlaceholder(text('zh-CN', 'login.form.usernamePlaceholder')).fill('root');
    await page.getByPlaceholder(text('zh-CN', 'login.form.passwordPlaceholder')).fill('123456');
    await page
      .locator('.auth-card')
      .getByRole('button', { name: exactLabel('zh-CN', 'login.submit') })
      .click();
    await page.waitForURL('**/user/edit');
    await expectToast(page, text('zh-CN', 'login.defaultPasswordWarning'));
    await view.close();
  });
});

describe.each([
  { width: 1280, language: 'en' as Language },
  { width: 375, language: 'zh-CN' as Language },
])('registration at $width px in $language', ({ width, language }) => {
  it('validates passwords, keeps the invite code and registers', async () => {
    const aff = (await suite.stack.root.get('/api/user/aff')).body.data as string;
    const view = await suite.open({ width, language });
    const { page } = view;
    await page.goto(`/register?aff=${aff}`);
    await expect.poll(() => page.evaluate(() => localStorage.getItem('aff'))).toBe(aff);
    const username = uniqueName('r');
    await page.getByPlaceholder(text(language, 'register.form.usernamePlaceholder')).fill(username);
    await page.getByPlaceholder(text(language, 'register.form.passwordPlaceholder')).fill('short');
    await page.getByPlaceholder(text(language, 'register.form.password2Placeholder')).fill('different');
    await page
      .locator('.auth-card')
      .getByRole('button', { name: label(language, 'register.submit') })
      .click();
    await page.getByText(text(language, 'register.passwordTooShort')).waitFor();
    await page.getByText(text(language, 'register.passwordMismatch')).waitFor();
    await page.getByPlaceholder(text(language, 'register.form.passwordPlaceholder')).fill('password123');
    await page.getByPlaceholder(text(language, 'register.form.password2Placeholder')).fill('password123');
    await page
      .locator('.auth-card')
      .getByRole('button', { name: label(language, 'register.submit') })
      .click();
    await page.waitForURL('**/login');
    await expectToast(page, text(language, 'register.success'));
    const client = suite.stack.client();
    await client.login(username, 'password123');
    const self = await client.get('/api/user/self');
    const rootSelf = await suite.stack.root.get('/api/user/self');
    expect(self.body.data.inviter_id).toBe(rootSelf.body.data.id);
    await view.close();
  });
});

describe('registration with email verification', () => {
  it('sends a code, counts down 30 s and registers with it', async () => {
    await suite.stack.setOptions({ EmailVerificationEnabled: true });
    try {
      const view = await suite.open({ width: 1280, language: 'zh-CN' });
      const { page } = view;
      await page.goto('/register');
      const username = uniqueName('m');
      const email = `${username}@example.test`;
      await page.getByPlaceholder(text('zh-CN', 'register.form.usernamePlaceholder')).fill(username);
      await page.getByPlaceholder(text('zh-CN', 'register.form.passwordPlaceholder')).fill('password123');
      await page.getByPlaceholder(text('zh-CN', 'register.form.password2Placeholder')).fill('password123');
      await page.getByPlaceholder(text('zh-CN', 'register.form.emailPlaceholder')).fill(email);
      await page
        .locator('.auth-card')
        .getByRole('button', { name: label('zh-CN', 'register.getCode') })
        .click();
      await expectToast(page, text('zh-CN', 'common.codeSent'));
      const countdown = page.getByRole('button', { name: /重试 \(\d+\)/ });
      await countdown.waitFor();
      expect(await countdown.isDisabled()).toBe(true);
      const mail = await suite.stack.smtp.waitForMail((received) => received.envelopeTo.includes(email));
      const code = /\b([0-9a-f]{6})\b/.exec(mail.html + mail.text)?.[1];
      expect(code).toBeTruthy();
      await page.getByPlaceholder(text('zh-CN', 'register.form.codePlaceholder')).fill(code ?? '');
      await page
        .locator('.auth-card')
        .getByRole('button', { name: label('zh-CN', 'register.submit') })
        .click();
      await page.waitForURL('**/login');
      await view.close();
    } finally {
      await suite.stack.setOptions({ EmailVerificationEnabled: false });
    }
  });
});

describe('password reset', () => {
  it('sends the mail with a 30 s countdown, then shows and copies the new password', async () => {
    const user = await createUser(suite.stack);
    const email = `${user.username}@example.test`;
    // Bind an email through the API: request a code, read it from the mail, bind it.
    const client = suite.stack.client();
    await client.login(user.username, user.password);
    await client.get(`/api/verification?email=${encodeURIComponent(email)}`);
    const codeMail = await suite.stack.smtp.waitForMail((mail) => mail.envelopeTo.includes(email));
    const code = /\b([0-9a-f]{6})\b/.exec(codeMail.html + codeMail.text)?.[1] ?? '';
    const bound = await client.get(`/api/oauth/email/bind?email=${encodeURIComponent(email)}&code=${code}`);
    expect(bound.body.success).toBe(true);

    const view = await suite.open({ width: 375, language: 'en' });
    const { page } = view;
    await page.goto('/reset');
    await page.getByPlaceholder(text('en', 'reset.form.emailPlaceholder')).fill(email);
    await page
      .locator('.auth-card')
      .getByRole('button', { name: label('en', 'reset.submit') })
      .click();
    const countdown = page.getByRole('button', { name: /Retry \(\d+\)/ });
    await countdown.waitFor();
    expect(await countdown.isDisabled()).toBe(true);
    await expectToast(page, text('en', 'reset.mailSent'));
    const resetMail = await suite.stack.smtp.waitForMail(
      (mail) => mail.envelopeTo.includes(email) && /token=/.test(mail.html),
    );
    const link = /href="([^"]*\/user\/reset\?[^"]+)"/.exec(resetMail.html)?.[1]?.replace(/&amp;/g, '&');
    expect(link).toBeTruthy();
    const target = new URL(link ?? '');
    await page.goto(`${target.pathname}${target.search}`);
    await page
      .locator('.auth-card')
      .getByRole('button', { name: label('en', 'reset.confirm.submit') })
      .click();
    const field = page.getByTestId('new-password');
    await field.waitFor();
    const newPassword = await field.inputValue();
    expect(newPassword.length).toBeGreaterThanOrEqual(8);
    await page
      .locator('.auth-card')
      .getByRole('button', { name: label('en', 'reset.confirm.done') })
      .waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(newPassword);
    await suite.stack.client().login(user.username, newPassword);
    await view.close();
  });
});

describe('signed-in shell', () => {
  it('restores the session from local storage on start', async () => {
    const view = await suite.open({ width: 1280, language: 'zh-CN' });
    await signInThroughApi(view.page, 'root', '123456');
    await view.page.goto('/token');
    await view.page.getByTestId('account-menu').getByText('root').waitFor();
    await view.close();
  });
});
