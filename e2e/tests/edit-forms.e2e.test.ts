import { describe, expect, it } from 'vitest';
import { expectToast, label, nextApiAnswer, signInThroughApi, text, VIEWPORTS } from '../support/browser.ts';
import { useSuite } from '../support/suite.ts';
import { createUser, uniqueName } from '../support/users.ts';
import { clearToasts, confirmPopup, rowWith } from './page-helpers.ts';

const suite = useSuite({ upstream: true });

async function channelId(name: string): Promise<number> {
  return (await suite.stack.root.get(`/api/channel/search?keyword=${name}`)).body.data[0].id as number;
}

describe.each(VIEWPORTS)('editing screens at $width px in $language', ({ width, language }) => {
  const t = (key: string, values?: Record<string, string | number>) => text(language, key, values);

  it('edits a channel, tests all channels with progress and deletes the disabled ones', async () => {
    const name = uniqueName('ce');
    const broken = uniqueName('cb');
    await suite.stack.root.post('/api/channel/', {
      name,
      type: 1,
      key: 'sk-a',
      base_url: suite.upstream.url,
      models: 'gpt-4o-mini',
      group: 'default',
    });
    await suite.stack.root.post('/api/channel/', {
      name: broken,
      type: 1,
      key: 'sk-b',
      base_url: suite.upstream.url,
      models: 'gpt-4o-mini',
      group: 'default',
    });
    await suite.stack.root.put('/api/channel/', { id: await channelId(broken), status: 2 });

    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, 'root', '123456');
    await page.goto(`/channel/edit/${await channelId(name)}`);
    const nameField = page.getByLabel(t('channel.form.name'), { exact: true });
    await expect.poll(() => nameField.inputValue()).toBe(name);
    await page.getByLabel(t('channel.form.modelMapping'), { exact: true }).fill('{not json');
    await page.getByRole('button', { name: label(language, 'common.submit') }).click();
    await expectToast(page, t('channel.form.error.mappingInvalid'));
    await page.getByLabel(t('channel.form.modelMapping'), { exact: true }).fill('{"gpt-4o-mini-2024": "gpt-4o-mini"}');
    await nameField.fill(`${name}x`);
    await page.getByRole('button', { name: label(language, 'common.submit') }).click();
    await expectToast(page, t('channel.toast.updated'));
    const stored = (await suite.stack.root.get(`/api/channel/${await channelId(name)}`)).body.data;
    expect(stored.name).toBe(`${name}x`);
    expect(JSON.parse(stored.model_mapping)).toEqual({ 'gpt-4o-mini-2024': 'gpt-4o-mini' });

    await page.goto('/channel');
    await clearToasts(page);
    await page.getByRole('button', { name: label(language, 'channel.action.testAll') }).click();
    await expectToast(page, t('channel.toast.testStarted'));
    await page.locator('.ant-alert', { hasText: t('channel.bulk.scopeAll') }).waitFor();
    await expect
      .poll(async () => (await suite.stack.root.get('/api/channel/test/status')).body.data.running, { timeout: 20_000 })
      .toBe(false);

    // Manually disabled channels stay disabled after a bulk test (automatic enabling is off): delete them.
    await page.reload();
    await rowWith(page, broken).waitFor();
    await clearToasts(page);
    const deleted = nextApiAnswer<number>(page, 'DELETE', '/api/channel/disabled');
    await page.getByRole('button', { name: label(language, 'channel.action.deleteDisabled') }).click();
    await confirmPopup(page, t('channel.confirm.deleteDisabled'));
    // Other tests of this file may leave disabled channels of their own, so the count is not fixed here.
    const { success, data: count } = await deleted;
    expect(success).toBe(true);
    expect(count).toBeGreaterThanOrEqual(1);
    expect((await suite.stack.root.get(`/api/channel/search?keyword=${broken}`)).body.data).toEqual([]);
    await expect.poll(() => rowWith(page, broken).count()).toBe(0);
    await rowWith(page, `${name}x`).waitFor();
    await expectToast(page, t('channel.toast.disabledDeleted', { count }));
    await view.close();
  });

  it('edits a token and a redemption code, and cleans old logs', async () => {
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, 'root', '123456');
    const tokenName = uniqueName('te');
    const token = (
      await suite.stack.root.post('/api/token/', {
        name: tokenName,
        remain_quota: 0,
        unlimited_quota: true,
        expired_time: -1,
      })
    ).body.data;
    await page.goto(`/token/edit/${token.id}`);
    const expiry = page.getByLabel(t('token.form.expiry'), { exact: true });
    await expect.poll(() => page.getByLabel(t('token.form.name'), { exact: true }).inputValue()).toBe(tokenName);
    await expiry.fill('not a date');
    await page.getByRole('button', { name: label(language, 'common.submit') }).click();
    await expectToast(page, t('token.form.expiryError'));
    await page.getByRole('button', { name: t('token.expiry.day') }).click();
    await page.getByRole('button', { name: t('token.quota.dollars', { amount: 5 }), exact: true }).click();
    await page.getByLabel(t('token.form.subnet'), { exact: true }).fill('10.0.0.0/8');
    await page.getByRole('button', { name: label(language, 'common.submit') }).click();
    await expectToast(page, t('token.toast.updated'));
    const saved = (await suite.stack.root.get(`/api/token/${token.id}`)).body.data;
    expect(saved).toMatchObject({ remain_quota: 2_500_000, unlimited_quota: false, subnet: '10.0.0.0/8' });
    expect(saved.expired_time - Date.now() / 1000).toBeGreaterThan(86_000);

    const codeName = uniqueName('re');
    const created = await suite.stack.root.post('/api/redemption/', { name: codeName, quota: 1000, count: 1 });
    expect(created.body.success).toBe(true);
    const code = (await suite.stack.root.get(`/api/redemption/search?keyword=${codeName}`)).body.data[0];
    await page.goto(`/redemption/edit/${code.id}`);
    const quota = page.getByLabel(new RegExp(t('redemption.form.quota', { quota: '' }).trim()));
    await expect.poll(() => quota.inputValue()).toBe('1000');
    await quota.fill('200000');
    await page.getByRole('button', { name: label(language, 'common.submit') }).click();
    await expectToast(page, t('redemption.toast.updated'));
    expect((await suite.stack.root.get(`/api/redemption/${code.id}`)).body.data.quota).toBe(200000);

    await page.goto('/setting?tab=operation');
    const cleaned = nextApiAnswer<number>(page, 'DELETE', '/api/log/');
    await page.getByRole('button', { name: label(language, 'settingAdmin.logs.clean') }).click();
    await confirmPopup(page, t('settingAdmin.logs.confirm'));
    const answer = await cleaned;
    expect(answer.success).toBe(true);
    await expectToast(page, t('settingAdmin.logs.cleared', { count: answer.data }));
    await view.close();
  });

  it('shows admins the per-channel service status', async () => {
    await suite.stack.root.post('/api/channel/', {
      name: uniqueName('cs'),
      type: 1,
      key: 'sk-s',
      // Loopback only: a later bulk test calls every channel.
      base_url: suite.upstream.url,
      models: 'gpt-4o-mini',
      group: 'default',
    });
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, 'root', '123456');
    await page.goto('/status');
    const channelsCard = page.locator('.ant-card', {
      has: page.getByText(t('status.column.channel'), { exact: true }),
    });
    await expect.poll(() => channelsCard.locator('tr.ant-table-row').count()).toBeGreaterThan(0);
    await view.close();
  });

  it("keeps the charges relayed calls made while an admin had the user's edit page open", async () => {
    const user = await createUser(suite.stack);
    const { id } = (await suite.stack.root.get(`/api/user/search?keyword=${user.username}`)).body.data[0];
    const granted = await suite.stack.root.put('/api/user/', { id, username: user.username, quota: 5_000_000 });
    expect(granted.body.success).toBe(true);
    const model = 'gpt-3.5-turbo';
    const channel = await suite.stack.root.post('/api/channel/', {
      name: uniqueName('cq'),
      type: 1,
      key: 'sk-q',
      base_url: suite.upstream.url,
      models: model,
      group: 'default',
    });
    expect(channel.body.success).toBe(true);
    const client = suite.stack.client();
    await client.login(user.username, user.password);
    const token = await client.post('/api/token/', { name: uniqueName('tq'), unlimited_quota: true, expired_time: -1 });
    expect(token.body.success).toBe(true);
    const balance = async () => (await suite.stack.root.get(`/api/user/${id}`)).body.data as { quota: number };

    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, 'root', '123456');
    await page.goto(`/user/edit/${id}`);
    const username = page.getByLabel(t('user.form.username'), { exact: true });
    await expect.poll(() => username.inputValue()).toBe(user.username);

    for (let call = 0; call < 2; call++) {
      const answer = await fetch(`${suite.stack.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer sk-${token.body.data.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(answer.status, await answer.clone().text()).toBe(200);
      await answer.arrayBuffer();
    }
    await expect.poll(async () => (await suite.stack.root.get(`/api/user/${id}`)).body.data.request_count).toBe(2);
    const charged = (await balance()).quota;
    expect(charged).toBeLessThan(5_000_000);

    const renamed = uniqueName('rn');
    await username.fill(renamed);
    await page.getByRole('button', { name: label(language, 'common.submit') }).click();
    await expectToast(page, t('user.toast.updated'));
    expect(await balance()).toMatchObject({ username: renamed, quota: charged });
    await view.close();
  });

  it('lets a user edit their own profile at /user/edit without group or quota', async () => {
    const user = await createUser(suite.stack);
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, user.username, user.password);
    await page.goto('/user/edit');
    const displayName = page.getByLabel(t('user.form.displayName'), { exact: true });
    await expect.poll(() => displayName.inputValue()).toBe(user.username);
    expect(await page.getByLabel(t('user.form.group'), { exact: true }).count()).toBe(0);
    await displayName.fill('Self Edited');
    await page.getByRole('button', { name: label(language, 'common.submit') }).click();
    await expectToast(page, t('user.toast.updated'));
    const client = suite.stack.client();
    await client.login(user.username, user.password);
    expect((await client.get('/api/user/self')).body.data.display_name).toBe('Self Edited');
    await page.getByRole('button', { name: label(language, 'common.cancel') }).click();
    await page.waitForURL('**/setting');
    await view.close();
  });
});
