import { beforeAll, describe, expect, it } from 'vitest';
import { expectToast, label, signInThroughApi, text, textPattern, VIEWPORTS } from '../support/browser.ts';
import { useSuite } from '../support/suite.ts';
import { uniqueName } from '../support/users.ts';
import { confirmPopup, LIST_ROW, ROW_CELL, rowWith, screenshot } from './page-helpers.ts';

const suite = useSuite({ upstream: true });

// Raw quota numbers make the log's quota column exact.
beforeAll(() => suite.stack.setOptions({ DisplayInCurrencyEnabled: false }));

describe.each(VIEWPORTS)('channel, token, relay and log at $width px in $language', ({ width, language }) => {
  const channelName = uniqueName('ch');
  const tokenName = uniqueName('tk');
  const t = (key: string, values?: Record<string, string | number>) => text(language, key, values);

  it('creates a channel on the mock upstream in the form and tests it from the list', async () => {
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, 'root', '123456');
    await page.goto('/channel/add');
    await page.getByLabel(t('channel.form.name'), { exact: true }).fill(channelName);
    await page.getByLabel(t('channel.form.baseUrl'), { exact: true }).fill(`${suite.upstream.url}/`);
    const custom = page.getByLabel(t('channel.form.customModel'), { exact: true });
    await custom.fill('gpt-4o-mini, gpt-4o-mini');
    await custom.press('Enter');
    await page.getByLabel(t('channel.form.key'), { exact: true }).fill('sk-upstream-key');
    await page.getByRole('button', { name: label(language, 'common.submit') }).click();
    await expectToast(page, t('channel.toast.created'));

    const stored = (await suite.stack.root.get(`/api/channel/search?keyword=${channelName}`)).body.data[0];
    expect(stored).toMatchObject({
      name: channelName,
      type: 1,
      models: 'gpt-4o-mini',
      base_url: suite.upstream.url,
      group: 'default',
    });

    await page.goto('/channel');
    const row = rowWith(page, channelName);
    await row.getByText(t('channel.responseTime.untested')).waitFor();
    await row.getByRole('button', { name: label(language, 'channel.action.test') }).click();
    await expectToast(
      page,
      textPattern(language, 'channel.toast.tested', {
        name: channelName,
        model: /gpt-4o-mini\S*/,
        seconds: /\d+\.\d\d/,
      }),
    );
    await row.getByText(new RegExp(t('channel.responseTime.seconds', { seconds: '\\d+\\.\\d\\d' }))).waitFor();
    expect(suite.upstream.requests.at(-1)?.headers.authorization).toBe('Bearer sk-upstream-key');

    // The details switch shows balance and test model and is remembered.
    await page.getByRole('switch', { name: t('channel.action.detail') }).click();
    await page.getByText(t('channel.column.balance'), { exact: true }).first().waitFor();
    expect(await page.evaluate(() => localStorage.getItem('show_detail'))).toBe('true');
    if (width > 600 && language === 'zh-CN') await screenshot(page, 'channel-list');
    await page.reload();
    await page.getByText(t('channel.column.balance'), { exact: true }).first().waitFor();
    await page.getByRole('switch', { name: t('channel.action.detail') }).click();

    // Disable and enable again.
    await row.getByRole('button', { name: label(language, 'channel.action.disable') }).click();
    await row.getByText(t('channel.status.disabled')).waitFor();
    await row.getByRole('button', { name: label(language, 'channel.action.enable') }).click();
    await row.getByText(t('channel.status.enabled')).waitFor();
    await view.close();
  });

  it('creates a token, copies its key, relays a call and finds it in the log with its quota', async () => {
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, 'root', '123456');
    await page.goto('/token/add');
    await page.getByLabel(t('token.form.name'), { exact: true }).fill(tokenName);
    await page.getByRole('button', { name: t('token.quota.dollars', { amount: 20 }), exact: true }).click();
    await page.getByRole('button', { name: t('token.expiry.month') }).click();
    await page.getByRole('button', { name: label(language, 'common.submit') }).click();
    await expectToast(page, t('token.toast.created'));

    await page.goto('/token');
    const row = rowWith(page, tokenName);
    await row.getByText(t('token.status.enabled')).waitFor();
    await row.getByRole('button', { name: label(language, 'token.action.copy') }).click();
    await expectToast(page, t('token.toast.copied'));
    const key = await page.evaluate(() => navigator.clipboard.readText());
    expect(key).toMatch(/^sk-\w{48}$/);
    if (width > 600 && language === 'zh-CN') await screenshot(page, 'token-list');

    const relay = await fetch(`${suite.stack.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(relay.status).toBe(200);
    // The consumption log of the call carries the quota charged, which the token's used quota also shows.
    const consumption = async () =>
      (await suite.stack.root.get(`/api/log/?type=2&token_name=${tokenName}`)).body.data as Array<{ quota: number }>;
    await expect.poll(async () => (await consumption()).length, { timeout: 15_000 }).toBe(1);
    const quota = (await consumption())[0]?.quota ?? 0;
    expect(quota).toBeGreaterThan(0);
    const tokens = (await suite.stack.root.get(`/api/token/search?keyword=${tokenName}`)).body.data as Array<{
      used_quota: number;
    }>;
    expect(tokens[0]?.used_quota).toBe(quota);

    await page.goto('/log');
    const logRow = rowWith(page, tokenName);
    await logRow.getByText('gpt-4o-mini').waitFor();
    await logRow.getByText(t('log.type.2')).waitFor();
    expect(await logRow.locator(ROW_CELL).allInnerTexts()).toContain(String(quota));
    await page.getByTestId('usage-chart').waitFor();
    if (width > 600 && language === 'zh-CN') await screenshot(page, 'log-with-chart');

    // Filtering by another token name empties the table (on a phone the filters are folded first).
    if (width <= 600) await page.getByRole('button', { name: t('log.filter.toggle') }).click();
    await page.getByLabel(t('log.filter.tokenName'), { exact: true }).fill('no-such-token');
    await page.getByRole('button', { name: label(language, 'log.filter.apply') }).click();
    await expect.poll(() => page.locator(LIST_ROW).count()).toBe(0);

    // Disable, then delete the token.
    await page.goto('/token');
    await row.getByRole('button', { name: label(language, 'token.action.disable') }).click();
    await row.getByText(t('token.status.disabled')).waitFor();
    await row.getByRole('button', { name: label(language, 'token.action.delete') }).click();
    await confirmPopup(page, t('token.confirm.delete', { name: tokenName }));
    await expect.poll(() => rowWith(page, tokenName).count()).toBe(0);
    await view.close();
  });
});
