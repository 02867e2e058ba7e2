import type { CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectToast, label, openPage, signInThroughApi, text, VIEWPORTS } from '../support/browser.ts';
import { useSuite } from '../support/suite.ts';
import { signOutThroughMenu } from './page-helpers.ts';
import { ageSession } from './session-age.ts';

// Issue 32, point 2: passkeys in a real Chromium with its virtual authenticator (CDP WebAuthn), in zh at 1280 px
// and en at 375 px. Root adds a passkey in the personal settings, signs out, signs in with "sign in with a
// passkey", and confirms a price write in the re-authentication modal with the same passkey.

const suite = useSuite();

/** The settings page loads its chunks and several API answers: on a busy machine that takes more than 5 s. */
const pageLoad = { timeout: 30_000 };

/**
 * WebAuthn needs a secure context and a domain for its relying party (an IP address is refused): the console is
 * opened at http://localhost:PORT, a loopback name the server accepts as its relying party (decision 0030).
 */
const localhostUrl = () => suite.stack.baseUrl.replace('//127.0.0.1:', '//localhost:');

/** A platform authenticator that holds discoverable credentials and verifies its user, answering at once. */
async function addVirtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

describe.each(VIEWPORTS)('passkeys at $width px in $language', ({ width, language }) => {
  const t = (key: string, values?: Record<string, string | number>) => text(language, key, values);

  it('adds a passkey, signs in with it, and confirms a price write with it', async () => {
    const view = await openPage(suite.browser, localhostUrl(), { width, language });
    const { page } = view;
    const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
    await signInThroughApi(page, 'root', '123456');

    // Added in the personal settings under a name.
    await page.goto('/setting');
    const name = `Laptop ${width}`;
    const nameField = page.getByLabel(t('setting.security.passkeys.name'));
    await nameField.waitFor(pageLoad);
    await nameField.fill(name);
    await page.getByRole('button', { name: label(language, 'setting.security.passkeys.add') }).click();
    await expectToast(page, t('setting.security.passkeys.added'));
    await page.getByText(name, { exact: true }).waitFor();
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });

    // Signed out, then back in with the passkey alone: no username, no password.
    await signOutThroughMenu(page, width, language);
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
    await page
      .locator('.auth-card')
      .getByRole('button', { name: label(language, 'login.passkey') })
      .click();
    await expectToast(page, t('login.success'));
    await page.waitForURL('**/token', pageLoad);
    const stored = await page.evaluate(
      () => JSON.parse(localStorage.getItem('user') ?? 'null') as { username: string } | null,
    );
    expect(stored?.username).toBe('root');

    // Six minutes on, a price write asks who is there; the passkey answers and the write goes through.
    await ageSession(page);
    await page.goto('/setting?tab=operation');
    const price = page.getByLabel(t('settingAdmin.option.WebSearchPrice'), { exact: true });
    await expect.poll(() => price.inputValue(), pageLoad).not.toBe('');
    const newPrice = width <= 600 ? '13.5' : '11.5';
    await price.fill(newPrice);
    await page
      .locator('.ant-card')
      .filter({ has: price })
      .getByRole('button', { name: label(language, 'settingAdmin.save') })
      .click();
    const dialog = page.getByRole('dialog').filter({ hasText: t('setting.security.reauth.title') });
    await dialog.waitFor(pageLoad);
    await dialog.getByText(t('setting.security.reauth.passkey'), { exact: true }).click();
    await dialog.getByText(t('setting.security.reauth.passkeyHint')).waitFor();
    await dialog.getByRole('button', { name: label(language, 'setting.security.reauth.usePasskey') }).click();
    await expectToast(page, t('settingAdmin.toast.saved'));
    await dialog.waitFor({ state: 'hidden' });
    const saved = (await suite.stack.root.get('/api/option/')).body.data.find(
      (option: { key: string }) => option.key === 'WebSearchPrice',
    ).value as string;
    expect(saved).toBe(newPrice);
    // Each ceremony signed with the one credential: registration, sign-in and re-authentication.
    const after = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
    expect(after).toHaveLength(1);
    expect(after[0]!.signCount).toBeGreaterThanOrEqual(2);
    await view.close();
  });
});
