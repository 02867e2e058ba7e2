import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { label, signInThroughApi, text, type Language } from '../support/browser.ts';
import { useSuite } from '../support/suite.ts';
import { uniqueName } from '../support/users.ts';
import { LIST_ROW, rowWith } from './page-helpers.ts';

const suite = useSuite();

const WIDTHS: ReadonlyArray<{ width: number; language: Language }> = [
  { width: 1024, language: 'en' },
  { width: 375, language: 'zh-CN' },
  { width: 375, language: 'en' },
];

const names = { token: uniqueName('wt'), channel: uniqueName('wc'), user: uniqueName('wu'), code: uniqueName('wr') };

beforeAll(async () => {
  const { root } = suite.stack;
  const answers = await Promise.all([
    root.post('/api/token/', { name: names.token, remain_quota: 0, unlimited_quota: true, expired_time: -1 }),
    root.post('/api/channel/', {
      name: names.channel,
      type: 1,
      key: 'sk-not-used',
      base_url: 'http://127.0.0.1:9',
      other: '',
      model_mapping: '',
      system_prompt: '',
      models: 'gpt-4o-mini',
      group: 'default',
      config: '{}',
    }),
    root.post('/api/user/', { username: names.user, display_name: 'Wide Or Narrow', password: 'password123' }),
    root.post('/api/redemption/', { name: names.code, quota: 500_000, count: 1 }),
  ]);
  for (const answer of answers) expect(answer.body.success, answer.body.message).toBe(true);
  // A top-up log for the log list.
  const codes = (await root.post('/api/redemption/', { name: uniqueName('wl'), quota: 1000, count: 1 })).body
    .data as string[];
  expect((await root.post('/api/user/topup', { key: codes[0] })).body.success).toBe(true);
});

/** True when the page itself scrolls sideways (something overflows the viewport's width). */
const pageOverflows = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

/** Sideways scroll positions of the window and of every table body. */
const scrollLefts = (page: Page) =>
  page.evaluate(() => [
    window.scrollX,
    ...[...document.querySelectorAll('.ant-table-content, .ant-table-body')].map((element) => element.scrollLeft),
  ]);

/** Checks that a control lies wholly within the viewport's width, as the page shows it before any scrolling. */
async function expectWithinWidth(page: Page, control: Locator, what: string) {
  await control.waitFor();
  const box = await control.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  expect(box, what).not.toBeNull();
  expect(box!.x, what).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, what).toBeLessThanOrEqual(width);
  // Nothing covers it where it would be clicked (a pinned column's shadow or the next cell, say).
  const hit = await page.evaluate(
    ({ x, y }) => document.elementFromPoint(x, y)?.closest('button, a, .ant-tag')?.textContent ?? null,
    { x: box!.x + box!.width / 2, y: box!.y + box!.height / 2 },
  );
  if (hit !== null) expect(hit.replace(/\s/g, ''), what).toBe((await control.innerText()).replace(/\s/g, ''));
}

describe.each(WIDTHS)('lists at $width px in $language', ({ width, language }) => {
  const t = (key: string, values?: Record<string, string | number>) => text(language, key, values);
  const button = (row: Locator, key: string) => row.getByRole('button', { name: label(language, key) }).first();

  /** Opens a list, finds the row and checks each action is on screen, then clicks the last one without a scroll. */
  async function checkActions(path: string, rowText: string, actions: string[], editPath: RegExp) {
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, 'root', '123456');
    await page.goto(path);
    const row = rowWith(page, rowText);
    await row.waitFor();
    expect(await pageOverflows(page), 'the page scrolls sideways').toBe(false);
    if (width <= 600) await page.locator('[data-testid="row-card"]').first().waitFor();
    for (const action of actions) await expectWithinWidth(page, button(row, action), `${path} ${action}`);
    const edit = button(row, actions.at(-1)!);
    await edit.scrollIntoViewIfNeeded();
    expect(
      (await scrollLefts(page)).every((left) => left === 0),
      'a sideways scroll was needed',
    ).toBe(true);
    await edit.click();
    await page.waitForURL(editPath);
    await view.close();
  }

  it('keeps the token actions on screen and clickable', async () => {
    await checkActions(
      '/token',
      names.token,
      ['token.action.copy', 'token.action.chat', 'token.action.delete', 'token.action.disable', 'token.action.edit'],
      /\/token\/edit\/\d+$/,
    );
  });

  it('keeps the channel actions and status on screen and clickable', async () => {
    const view = await suite.open({ width, language });
    await signInThroughApi(view.page, 'root', '123456');
    await view.page.goto('/channel');
    await expectWithinWidth(
      view.page,
      rowWith(view.page, names.channel).getByText(t('channel.status.enabled'), { exact: true }),
      'channel status',
    );
    await view.close();
    await checkActions(
      '/channel',
      names.channel,
      ['channel.action.test', 'channel.action.delete', 'channel.action.disable', 'channel.action.edit'],
      /\/channel\/edit\/\d+$/,
    );
  });

  it('keeps the user actions on screen and clickable', async () => {
    await checkActions(
      '/user',
      names.user,
      ['user.action.promote', 'user.action.demote', 'user.action.delete', 'user.action.disable', 'user.action.edit'],
      /\/user\/edit\/\d+$/,
    );
  });

  it('keeps the redemption code actions on screen and clickable', async () => {
    await checkActions(
      '/redemption',
      names.code,
      ['redemption.action.copy', 'redemption.action.delete', 'redemption.action.disable', 'redemption.action.edit'],
      /\/redemption\/edit\/\d+$/,
    );
  });

  it('shows each log on screen, with the filters folded on a phone', async () => {
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, 'root', '123456');
    await page.goto('/log');
    const first = page.locator(LIST_ROW).first();
    await first.waitFor();
    expect(await pageOverflows(page), 'the page scrolls sideways').toBe(false);
    const tokenField = page.getByLabel(t('log.filter.tokenName'), { exact: true });
    if (width > 600) {
      await tokenField.waitFor();
      await view.close();
      return;
    }
    // Folded by default: no field shows and the first log starts within the first screen.
    expect(await tokenField.isVisible()).toBe(false);
    const top = (await first.boundingBox())!.y;
    expect(top).toBeLessThan(page.viewportSize()!.height);
    await expectWithinWidth(page, first.locator('.ant-tag').first(), 'a log tag');
    await expect.poll(() => page.getByTestId('log-filter-count').count()).toBe(0);

    const toggle = page.getByRole('button', { name: t('log.filter.toggle') });
    await toggle.click();
    await tokenField.fill('no-such-token');
    await page
      .getByTestId('log-filter-count')
      .getByText(t('log.filter.setCount', { count: 1 }))
      .waitFor();
    await page.getByRole('button', { name: label(language, 'log.filter.apply') }).click();
    await expect.poll(() => page.locator(LIST_ROW).count()).toBe(0);
    await toggle.click();
    expect(await tokenField.isVisible()).toBe(false);
    // Folded again, the toggle still says a filter is set.
    await page
      .getByTestId('log-filter-count')
      .getByText(t('log.filter.setCount', { count: 1 }))
      .waitFor();
    await view.close();
  });
});
