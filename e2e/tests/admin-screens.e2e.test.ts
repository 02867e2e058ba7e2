import { readFileSync } from 'node:fs';
import type { Locator } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectToast, label, settledPopup, signInThroughApi, text, VIEWPORTS } from '../support/browser.ts';
import { useSuite } from '../support/suite.ts';
import { createUser, uniqueName } from '../support/users.ts';
import { clearToasts, confirmPopup, LIST_ROW, rowWith, whole } from './page-helpers.ts';

const suite = useSuite();

beforeAll(async () => {
  await suite.stack.root.post('/api/channel/', {
    name: 'status-ch',
    type: 1,
    key: 'sk-x',
    // Loopback only (refused at once): nothing in the suite may reach the network.
    base_url: 'http://127.0.0.1:9',
    models: 'gpt-4o-mini',
    group: 'default',
  });
});

describe.each(VIEWPORTS)('management screens at $width px in $language', ({ width, language }) => {
  const t = (key: string, values?: Record<string, string | number>) => text(language, key, values);

  it('creates redemption codes as a download and a user redeems one on the top-up page', async () => {
    const admin = await suite.open({ width, language });
    await signInThroughApi(admin.page, 'root', '123456');
    await admin.page.goto('/redemption/add');
    const name = uniqueName('rc');
    await admin.page.getByLabel(t('redemption.form.name'), { exact: true }).fill(name);
    await admin.page.getByLabel(t('redemption.form.count'), { exact: true }).fill('2');
    const [download] = await Promise.all([
      admin.page.waitForEvent('download'),
      admin.page.getByRole('button', { name: label(language, 'common.submit') }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${name}.txt`);
    const codes = readFileSync(await download.path(), 'utf8').split('\n');
    expect(codes).toHaveLength(2);
    for (const code of codes) expect(code).toMatch(/^[0-9a-f]{32}$/);

    const user = await createUser(suite.stack);
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, user.username, user.password);
    await page.goto('/topup');
    const remaining = page.getByTestId('remaining-circle');
    await remaining.getByText('$0.00').waitFor();
    await page.getByRole('button', { name: whole(label(language, 'topup.redeem')) }).click();
    await expectToast(page, t('topup.codeRequired'));
    await page.getByRole('button', { name: t('topup.buy') }).click();
    await expectToast(page, t('topup.linkMissing'));
    await page.getByLabel(t('topup.codePlaceholder')).fill(codes[0] ?? '');
    await page.getByRole('button', { name: whole(label(language, 'topup.redeem')) }).click();
    await expectToast(page, t('topup.success'));
    await remaining.getByText('$0.20').waitFor();
    expect(await page.getByLabel(t('topup.codePlaceholder')).inputValue()).toBe('');
    await view.close();

    // The used code can no longer be toggled; the other one can be disabled.
    await admin.page.goto('/redemption');
    await admin.page.getByPlaceholder(t('redemption.search.placeholder')).fill(name);
    await admin.page.getByPlaceholder(t('redemption.search.placeholder')).press('Enter');
    await expect.poll(() => admin.page.locator(LIST_ROW).count()).toBe(2);
    const rowWithStatus = (key: string) =>
      admin.page.locator(LIST_ROW).filter({ has: admin.page.getByText(t(key), { exact: true }) });
    const used = rowWithStatus('redemption.status.used');
    expect(await used.getByRole('button', { name: label(language, 'redemption.action.enable') }).isDisabled()).toBe(
      true,
    );
    await clearToasts(admin.page);
    await rowWithStatus('redemption.status.unused')
      .getByRole('button', { name: label(language, 'redemption.action.disable') })
      .click();
    await rowWithStatus('redemption.status.disabled').waitFor();
    await admin.close();
  });

  it('lets an admin add, promote, demote, disable, edit and delete a user', async () => {
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, 'root', '123456');
    await page.goto('/user/add');
    const username = uniqueName('m');
    await page.getByLabel(t('user.form.username'), { exact: true }).fill(username);
    await page.getByLabel(t('user.form.password'), { exact: true }).fill('password123');
    await page.getByRole('button', { name: label(language, 'common.submit') }).click();
    await expectToast(page, t('user.toast.created'));

    await page.goto('/user');
    // Super-admin rows cannot be acted on. (Exact texts below: on a phone a row is a card whose labels, such as
    // 'Username', contain the role 'User'.)
    const rootRow = rowWith(page, 'root');
    expect(await rootRow.getByRole('button', { name: label(language, 'user.action.promote') }).isDisabled()).toBe(true);
    const search = page.getByPlaceholder(t('user.search.placeholder'));
    await search.fill(username);
    await search.press('Enter');
    const row = rowWith(page, username);
    await row.getByText(t('user.role.common'), { exact: true }).waitFor();
    await row.getByRole('button', { name: label(language, 'user.action.promote') }).click();
    await row.getByText(t('user.role.admin'), { exact: true }).waitFor();
    await clearToasts(page);
    await row.getByRole('button', { name: label(language, 'user.action.demote') }).click();
    await row.getByText(t('user.role.common'), { exact: true }).waitFor();
    await clearToasts(page);
    await row.getByRole('button', { name: label(language, 'user.action.disable') }).click();
    await row.getByText(t('user.status.banned'), { exact: true }).waitFor();
    await clearToasts(page);
    await row.getByRole('button', { name: label(language, 'user.action.enable') }).click();
    await row.getByText(t('user.status.enabled'), { exact: true }).waitFor();

    await clearToasts(page);
    await row.getByRole('button', { name: label(language, 'user.action.edit') }).click();
    await page.waitForURL(/\/user\/edit\/\d+$/);
    const quota = page.getByLabel(new RegExp(t('user.form.quota', { quota: '' }).trim()));
    await expect.poll(() => quota.inputValue()).toBe('0');
    await quota.fill('1000000');
    await page.getByText(t('user.form.quota', { quota: '$2.00' })).waitFor();
    await page.getByRole('button', { name: label(language, 'common.submit') }).click();
    await expectToast(page, t('user.toast.updated'));
    const found = (await suite.stack.root.get(`/api/user/search?keyword=${username}`)).body.data[0];
    expect(found).toMatchObject({ quota: 1000000, role: 1, status: 1 });

    await page.goto('/user');
    await search.fill(username);
    await search.press('Enter');
    await clearToasts(page);
    await row.getByRole('button', { name: label(language, 'user.action.delete') }).click();
    await confirmPopup(page, t('user.confirm.delete', { name: username }));
    await expect.poll(() => rowWith(page, username).count()).toBe(0);
    await view.close();
  });

  it('saves an option in the admin settings and the console shows it', async () => {
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, 'root', '123456');
    // Each section of the operation tab is a card with its own save button.
    const saveCardOf = (field: Locator) =>
      page
        .locator('.ant-card')
        .filter({ has: field })
        .getByRole('button', { name: label(language, 'settingAdmin.save') })
        .click();
    await page.goto('/setting?tab=other');
    const systemName = page.getByLabel(t('settingAdmin.option.SystemName'), { exact: true });
    await expect.poll(() => systemName.inputValue()).not.toBe('');
    const name = `Gate ${width}`;
    await systemName.fill(name);
    await systemName.press('Enter');
    await expectToast(page, t('settingAdmin.toast.saved'));
    await page.goto('/');
    await expect.poll(() => page.title()).toBe(name);

    // Ratios must be JSON.
    await page.goto('/setting?tab=operation');
    const ratio = page.getByLabel(t('settingAdmin.option.GroupRatio'), { exact: true });
    await expect.poll(() => ratio.inputValue()).toContain('default');
    await ratio.fill('{broken');
    await saveCardOf(ratio);
    await expectToast(page, t('settingAdmin.ratio.invalid.GroupRatio'));
    expect(
      JSON.parse(
        (await suite.stack.root.get('/api/option/')).body.data.find((o: { key: string }) => o.key === 'GroupRatio')
          .value,
      ),
    ).toHaveProperty('default');

    // The web search price is a number in the ratio section.
    await page.goto('/setting?tab=operation');
    const price = page.getByLabel(t('settingAdmin.option.WebSearchPrice'), { exact: true });
    await expect.poll(() => price.inputValue()).toBe('10.00');
    await price.fill('12.5');
    await saveCardOf(price);
    await expectToast(page, t('settingAdmin.toast.saved'));
    const saved = async () =>
      (await suite.stack.root.get('/api/option/')).body.data.find((o: { key: string }) => o.key === 'WebSearchPrice')
        .value;
    expect(await saved()).toBe('12.5');
    await suite.stack.setOptions({ WebSearchPrice: '10' });

    // Turning password sign-in off asks first; cancelling keeps it on.
    await page.goto('/setting?tab=system');
    await page.getByRole('switch', { name: t('settingAdmin.option.PasswordLoginEnabled') }).click();
    await page.getByText(t('settingAdmin.passwordLogin.warning')).waitFor();
    await settledPopup(page, '.ant-modal-confirm').locator('.ant-btn').first().click();
    expect(await page.getByRole('switch', { name: t('settingAdmin.option.PasswordLoginEnabled') }).isChecked()).toBe(
      true,
    );
    await view.close();
  });

  it('shows the service status of the models a user may call', async () => {
    const user = await createUser(suite.stack);
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, user.username, user.password);
    await page.goto('/status');
    const row = rowWith(page, 'gpt-4o-mini');
    await row.getByText(t('status.available')).waitFor();
    expect(await page.getByText(t('status.channels'), { exact: true }).count()).toBe(0);
    await view.close();
  });
});
