import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { label, MATRIX_1440, signInThroughApi, text } from '../support/browser.ts';
import { useSuite } from '../support/suite.ts';
import { uniqueName } from '../support/users.ts';
import { LIST_ROW } from './page-helpers.ts';

// Issue 33 point 5: channel tests write type-5 logs ('测试 / Test'); the log page's type filter selects them, and
// 'hide test logs' leaves them out of the list, the total and the CSV export, remembered across visits. Every
// log retention field says that 0 keeps forever.
const suite = useSuite({ upstream: true });

const MATRIX = MATRIX_1440;

/** Channel tests run in beforeAll: each writes one test log (type 5). */
const TESTS = 3;
const counts = { all: 0, tests: 0 };

const adminCount = async (query: string) =>
  ((await suite.stack.root.get(`/api/log/count?${query}`)).body.data as { total: number; exact: boolean }).total;

beforeAll(async () => {
  const { root } = suite.stack;
  const created = await root.post('/api/channel/', {
    name: uniqueName('tl'),
    type: 1,
    key: 'sk-upstream',
    base_url: suite.upstream.url,
    models: 'gpt-4o-mini',
    group: 'default',
    other: '',
    model_mapping: '',
    system_prompt: '',
    config: '{}',
  });
  expect(created.body.success, created.body.message).toBe(true);
  const channels = (await root.get('/api/channel/?p=0')).body.data as Array<{ id: number }>;
  for (let run = 0; run < TESTS; run += 1) {
    const tested = await root.get(`/api/channel/test/${channels[0]!.id}`);
    expect(tested.body.success, tested.body.message).toBe(true);
  }
  // A top-up log too, so that hiding the tests leaves something to show.
  const codes = (await root.post('/api/redemption/', { name: uniqueName('tl'), quota: 1000, count: 1 })).body
    .data as string[];
  expect((await root.post('/api/user/topup', { key: codes[0] })).body.success).toBe(true);
  await vi.waitFor(async () => expect(await adminCount('type=5')).toBe(TESTS), { timeout: 15_000, interval: 200 });
  counts.all = await adminCount('');
  counts.tests = await adminCount('type=5');
  expect(counts.all).toBeGreaterThan(counts.tests);
  expect(await adminCount('exclude_type=5')).toBe(counts.all - counts.tests);
});

describe.each(MATRIX)('test logs at $width px in $language', ({ width, language }) => {
  const t = (key: string, values?: Record<string, string | number>) => text(language, key, values);
  const narrow = width <= 600;

  /** Unfolds the filters on a phone (they fold behind a toggle there). */
  async function openFilters(page: Page) {
    if (!narrow) return;
    const toggle = page.getByRole('button', { name: label(language, 'log.filter.toggle') });
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  }

  const apply = (page: Page) => page.getByRole('button', { name: label(language, 'log.filter.apply') }).click();

  const expectTotal = (page: Page, count: number) =>
    page.getByTestId('log-total').getByText(t('log.pager.total', { count }), { exact: true }).waitFor();

  /** The type tags of the rows shown (their other tags name channels and models). */
  const typeNames = [1, 2, 3, 4, 5].map((type) => t(`log.type.${type}`));
  const shownTypes = async (page: Page) =>
    (await page.locator(LIST_ROW).locator('.ant-tag').allInnerTexts()).filter((tag) => typeNames.includes(tag));

  it('selects test logs, hides them from the list, the total and the export, and remembers it', async () => {
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, 'root', '123456');
    await page.goto('/log');
    await expectTotal(page, counts.all);

    // The type filter selects the test logs.
    await openFilters(page);
    await page.getByRole('combobox', { name: t('log.filter.type') }).click();
    await page
      .locator('.ant-select-item-option', { hasText: t('log.type.5') })
      .first()
      .click();
    const hide = page.getByRole('checkbox', { name: t('log.filter.hideTest') });
    // Asking for test logs and hiding them cannot go together.
    await expect.poll(() => hide.isDisabled()).toBe(true);
    await apply(page);
    await expectTotal(page, counts.tests);
    await expect.poll(() => shownTypes(page)).toEqual(Array.from({ length: counts.tests }, () => t('log.type.5')));

    // Every type again, test logs hidden.
    await openFilters(page);
    await page.getByRole('combobox', { name: t('log.filter.type') }).click();
    await page
      .locator('.ant-select-item-option', { hasText: t('log.type.all') })
      .first()
      .click();
    await page.getByRole('checkbox', { name: t('log.filter.hideTest') }).check();
    await apply(page);
    await expectTotal(page, counts.all - counts.tests);
    await expect.poll(async () => (await shownTypes(page)).length).toBe(Math.min(10, counts.all - counts.tests));
    expect(await shownTypes(page)).not.toContain(t('log.type.5'));
    if (narrow)
      await page
        .getByTestId('log-filter-count')
        .getByText(t('log.filter.setCount', { count: 1 }))
        .waitFor();

    // The export leaves them out too: one line per log shown in the total, none of them a test.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: label(language, 'log.export.button') }).click(),
    ]);
    const csv = (await readFile((await download.path())!)).subarray(3).toString('utf8').trim().split('\r\n');
    expect(csv.length - 1).toBe(counts.all - counts.tests);
    // The file names the type in the browser's language: 'test' or '测试'.
    expect(csv.slice(1).filter((line) => /^(test|测试)$/.test(line.split(',')[1]!))).toEqual([]);

    // Remembered: the next visit starts with test logs hidden.
    await page.reload();
    await expectTotal(page, counts.all - counts.tests);
    await openFilters(page);
    expect(await page.getByRole('checkbox', { name: t('log.filter.hideTest') }).isChecked()).toBe(true);
    await page.getByRole('checkbox', { name: t('log.filter.hideTest') }).uncheck();
    await apply(page);
    await expectTotal(page, counts.all);
    await page.reload();
    await expectTotal(page, counts.all);
    await view.close();
  });

  it('says under every log retention field that 0 keeps forever', async () => {
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, 'root', '123456');
    await page.goto('/setting?tab=operation');
    const keys = ['Consume', 'TopUp', 'Manage', 'System', 'Test'].map((type) => `LogRetentionDays${type}`);
    const forever = language === 'en' ? /\b0 keeps (them )?forever\b/ : /0 表示永久保留/;
    for (const key of [...keys, 'LogRollupRetentionDays']) {
      const item = page.locator('.ant-form-item', {
        has: page.getByLabel(t(`settingAdmin.option.${key}`), { exact: true }),
      });
      await item.first().waitFor();
      expect(await item.first().locator('.ant-form-item-extra').innerText(), key).toMatch(forever);
    }
    await view.close();
  });
});
