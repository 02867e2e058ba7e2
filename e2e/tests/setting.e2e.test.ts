import { describe, expect, it } from 'vitest';
import { expectToast, label, settledPopup, signInThroughApi, text, VIEWPORTS } from '../support/browser.ts';
import { useSuite } from '../support/suite.ts';
import { createUser } from '../support/users.ts';

const suite = useSuite();

describe.each(VIEWPORTS)('personal settings at $width px in $language', ({ width, language }) => {
  it('updates the profile, generates an access token and copies the invitation link', async () => {
    const user = await createUser(suite.stack);
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, user.username, user.password);
    await page.goto('/setting');
    // Ordinary users see only the personal tab.
    await page.getByRole('tab', { name: text(language, 'setting.tabs.personal') }).waitFor();
    expect(await page.getByRole('tab', { name: text(language, 'setting.tabs.system') }).count()).toBe(0);

    const displayName = page.getByLabel(text(language, 'setting.personal.displayName'));
    await expect.poll(() => displayName.inputValue()).toBe(user.username);
    await displayName.fill('E2E Person');
    await page.getByRole('button', { name: label(language, 'common.submit') }).click();
    await expectToast(page, text(language, 'setting.personal.updated'));
    const client = suite.stack.client();
    await client.login(user.username, user.password);
    expect((await client.get('/api/user/self')).body.data.display_name).toBe('E2E Person');

    await page.getByRole('button', { name: text(language, 'setting.personal.generateToken') }).click();
    await expectToast(page, text(language, 'setting.personal.tokenCopied'));
    const token = (await page.getByTestId('access-token').first().innerText()).trim();
    expect(token).toMatch(/^[0-9a-f]{32}$/);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    const byToken = await fetch(`${suite.stack.baseUrl}/api/user/self`, { headers: { Authorization: token } });
    expect(((await byToken.json()) as { data: { username: string } }).data.username).toBe(user.username);

    await page.getByRole('button', { name: text(language, 'setting.personal.copyInvitation') }).click();
    await expectToast(page, text(language, 'setting.personal.invitationCopied'));
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(new RegExp(`^${suite.stack.baseUrl.replace(/[.]/g, '\\.')}/register\\?aff=\\w+$`));
    await view.close();
  });

  it('binds an email with a mailed code and a 30 s resend countdown', async () => {
    const user = await createUser(suite.stack);
    const email = `${user.username}@example.test`;
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, user.username, user.password);
    await page.goto('/setting');
    await page.getByRole('button', { name: text(language, 'setting.personal.bindEmail') }).click();
    const modal = settledPopup(page, '.ant-modal');
    await modal.getByLabel(text(language, 'setting.personal.email')).fill(email);
    await modal.getByRole('button', { name: label(language, 'register.getCode') }).click();
    await expectToast(page, text(language, 'common.codeSent'));
    expect(await modal.getByRole('button', { name: /\(\d+\)/ }).isDisabled()).toBe(true);
    const mail = await suite.stack.smtp.waitForMail((received) => received.envelopeTo.includes(email));
    const code = /\b([0-9a-f]{6})\b/.exec(mail.html + mail.text)?.[1] ?? '';
    await modal.getByLabel(text(language, 'register.form.code')).fill(code);
    await modal.locator('.ant-btn-primary').click();
    await expectToast(page, text(language, 'setting.personal.emailBound'));
    await expect.poll(() => page.getByTestId('bound-email').inputValue()).toBe(email);
    await view.close();
  });

  it('deletes the account only after the username is typed', async () => {
    const user = await createUser(suite.stack);
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, user.username, user.password);
    await page.goto('/setting');
    await page.getByRole('button', { name: text(language, 'setting.personal.deleteAccount') }).click();
    const modal = settledPopup(page, '.ant-modal');
    await modal.locator('.ant-btn-dangerous').click();
    await expectToast(page, text(language, 'setting.personal.deleteConfirmMismatch'));
    await modal.getByPlaceholder(user.username).fill(user.username);
    await modal.locator('.ant-btn-dangerous').click();
    await page.waitForURL('**/login');
    await expectToast(page, text(language, 'setting.personal.deleted'));
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
    const login = await suite.stack
      .client()
      .post('/api/user/login', { username: user.username, password: user.password });
    expect(login.body.success).toBe(false);
    await view.close();
  });
});

describe('settings for root', () => {
  it('shows the admin tabs', async () => {
    const view = await suite.open({ width: 1280, language: 'zh-CN' });
    const { page } = view;
    await signInThroughApi(page, 'root', '123456');
    await page.goto('/setting');
    for (const tab of ['personal', 'operation', 'system', 'other']) {
      await page.getByRole('tab', { name: text('zh-CN', `setting.tabs.${tab}`) }).waitFor();
    }
    await view.close();
  });
});
