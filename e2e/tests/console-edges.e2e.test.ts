import { describe, expect, it } from 'vitest';
import { label, signInThroughApi, text, VIEWPORTS } from '../support/browser.ts';
import { useSuite } from '../support/suite.ts';
import { createUser, uniqueName } from '../support/users.ts';

const suite = useSuite();

/** The ServerAddress option of a fresh install (server/src/domain/option/option.definitions.ts). */
const FRESH_SERVER_ADDRESS = 'http://localhost:3000';

/** Registers a user and signs an API client in as them. */
async function signedInUser() {
  const user = await createUser(suite.stack);
  const client = suite.stack.client();
  await client.login(user.username, user.password);
  return { ...user, client };
}

describe.each(VIEWPORTS)('thin edges at $width px in $language', ({ width, language }) => {
  const t = (key: string, values?: Record<string, string | number>) => text(language, key, values);

  it('shows and copies the address the console was served from until an admin sets one', async () => {
    // The stack set its own address; a fresh install has the default, which names the installer's machine.
    await suite.stack.setOptions({ ServerAddress: FRESH_SERVER_ADDRESS });
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, 'root', '123456');
    await page.goto('/token');
    const origin = new URL(page.url()).origin;
    expect(origin).not.toBe(FRESH_SERVER_ADDRESS);
    await page.getByText(t('token.usage.urlLine', { url: origin }), { exact: true }).waitFor();
    await page.getByRole('button', { name: t('token.action.copyBaseUrl') }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(origin);

    await suite.stack.setOptions({ ServerAddress: 'https://api.example.test' });
    await page.reload();
    await page.getByText(t('token.usage.urlLine', { url: 'https://api.example.test' }), { exact: true }).waitFor();
    await suite.stack.setOptions({ ServerAddress: suite.stack.baseUrl });
    await view.close();
  });

  it('keeps a large balance inside the top-up circle', async () => {
    const user = await signedInUser();
    const id = (await suite.stack.root.get(`/api/user/search?keyword=${user.username}`)).body.data[0].id as number;
    // $123,456,789.00 at 500 000 units per dollar.
    const top = await suite.stack.root.post('/api/topup', { user_id: id, quota: 123_456_789 * 500_000 });
    expect(top.body.success, top.body.message).toBe(true);
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, user.username, user.password);
    await page.goto('/topup');
    const circle = page.getByTestId('remaining-circle');
    const amount = circle.getByText('$123456789.00', { exact: true });
    await amount.waitFor();
    const ring = (await circle.locator('.ant-progress-body, .ant-progress-inner').first().boundingBox())!;
    const shown = (await amount.boundingBox())!;
    expect(shown.x).toBeGreaterThanOrEqual(ring.x);
    expect(shown.x + shown.width).toBeLessThanOrEqual(ring.x + ring.width);
    await view.close();
  });

  it("refuses to edit another user's token: the server's reason and a disabled form", async () => {
    const owner = await signedInUser();
    const token = (
      await owner.client.post('/api/token/', {
        name: uniqueName('own'),
        remain_quota: 0,
        unlimited_quota: true,
        expired_time: -1,
      })
    ).body.data as { id: number };
    const other = await createUser(suite.stack);
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, other.username, other.password);
    await page.goto(`/token/edit/${token.id}`);
    const refusal = page.locator('.ant-alert-error');
    await refusal.getByText(t('common.loadRefused')).waitFor();
    await refusal.getByText(language === 'en' ? 'token not found' : '令牌不存在').waitFor();
    expect(await page.getByRole('button', { name: label(language, 'common.submit') }).isDisabled()).toBe(true);
    expect(await page.getByLabel(t('token.form.name'), { exact: true }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: label(language, 'common.cancel') }).click();
    await page.waitForURL(/\/token$/);
    await view.close();
  });

  it('offers a way home from the 403 page', async () => {
    const user = await createUser(suite.stack);
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, user.username, user.password);
    await page.goto('/channel');
    await page.getByText(t('common.noPermission')).waitFor();
    await page.getByRole('button', { name: t('common.backHome') }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await view.close();
  });

  it("shows the admin's About text on /about and visitors only the models a channel serves", async () => {
    await suite.stack.setOptions({ About: 'Served by **the e2e gateway**.' });
    const channel = await suite.stack.root.post('/api/channel/', {
      name: uniqueName('ab'),
      type: 1,
      key: 'sk-not-used',
      base_url: 'http://127.0.0.1:9',
      other: '',
      model_mapping: '',
      system_prompt: '',
      models: 'gpt-4o-mini,not-in-catalogue',
      group: 'default',
      config: '{}',
    });
    expect(channel.body.success).toBe(true);
    const view = await suite.open({ width, language });
    const { page } = view;
    await page.goto('/about');
    await page.getByTestId('about-text').locator('strong', { hasText: 'the e2e gateway' }).waitFor();
    // Every model the default group is served is listed, with or without an entry in the embedded catalogue.
    const pricing = await page.request.get('/api/pricing');
    const served = ((await pricing.json()) as { data: { models: { model: string }[] } }).data.models;
    expect(served.map((entry) => entry.model)).toEqual(expect.arrayContaining(['gpt-4o-mini', 'not-in-catalogue']));
    await page
      .getByTestId('catalogue-count')
      .getByText(t('about.loadedCount', { count: served.length }))
      .waitFor();
    await page.getByText('gpt-4o-mini', { exact: true }).first().waitFor();
    await page.getByText('not-in-catalogue', { exact: true }).first().waitFor();
    expect(await page.getByText('gpt-4o', { exact: true }).count()).toBe(0);
    await suite.stack.setOptions({ About: '' });
    await view.close();
  });

  it('disables the quota amount while the quota is unlimited', async () => {
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, 'root', '123456');
    await page.goto('/token/add');
    const amount = page.getByLabel(
      new RegExp(
        t('token.form.remainQuota', { quota: '' })
          .trim()
          .replace(/[()（）]/g, '.'),
      ),
    );
    await amount.waitFor();
    // New tokens start unlimited.
    expect(await amount.isDisabled()).toBe(true);
    await page.getByRole('button', { name: t('token.quota.dollars', { amount: 20 }), exact: true }).click();
    await expect.poll(() => amount.isDisabled()).toBe(false);
    expect(Number(await amount.inputValue())).toBe(20);
    await page.getByRole('switch', { name: t('token.form.unlimited') }).click();
    await expect.poll(() => amount.isDisabled()).toBe(true);
    await view.close();
  });
});
