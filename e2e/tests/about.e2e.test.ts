import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../web/src/pages/about/catalogue.data.ts';
import { settledPopup, signInThroughApi, text, VIEWPORTS } from '../support/browser.ts';
import { useSuite } from '../support/suite.ts';

const suite = useSuite();

// Visitors see the models some channel serves: one channel of the vip group serves the whole catalogue (root, in
// the default group, does not see it).
beforeAll(async () => {
  const created = await suite.stack.root.post('/api/channel/', {
    name: 'e2e catalogue channel',
    type: 1,
    key: 'sk-e2e-not-used',
    base_url: 'http://127.0.0.1:9',
    other: '',
    model_mapping: '',
    system_prompt: '',
    models: CATALOGUE.map((entry) => entry.key).join(','),
    group: 'vip',
    config: '{}',
  });
  expect(created.body.success).toBe(true);
});

const rowNames = (page: Page) => page.locator('.ant-table-tbody tr.ant-table-row td:first-child').allInnerTexts();

async function chooseOption(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await settledPopup(page, '.ant-select-dropdown')
    .locator('.ant-select-item-option', { hasText: option })
    .first()
    .click();
}

describe.each(VIEWPORTS)('model list at $width px in $language', ({ width, language }) => {
  it('shows visitors the served models (here the whole catalogue) with working filters', async () => {
    const view = await suite.open({ width, language });
    const { page } = view;
    await page.goto('/about');
    await page
      .getByTestId('catalogue-count')
      .getByText(text(language, 'about.loadedCount', { count: CATALOGUE.length }))
      .waitFor();

    await page.getByTestId('catalogue-search').fill('GPT-4O-MINI');
    await expect.poll(() => rowNames(page)).toEqual(['gpt-4o-mini', 'gpt-4o-mini-2024-07-18']);
    // Per 1M by default; per 1K divides by 1000; both with 4 decimals.
    const firstRow = page.locator('.ant-table-tbody tr.ant-table-row').first();
    await firstRow.getByText(text(language, 'about.price.input', { price: '$0.1500 / 1M' })).waitFor();
    await page.getByTestId('catalogue-unit').getByText(text(language, 'about.filter.per1K')).click();
    await firstRow
      .getByText(text(language, 'about.price.input', { price: `$${(0.15 / 1000).toFixed(4)} / 1K` }))
      .waitFor();
    await page.getByTestId('catalogue-search').fill('');

    await page.getByTestId('provider-deepseek').click();
    await expect.poll(() => rowNames(page)).toEqual(['deepseek-chat', 'deepseek-reasoner', 'deepseek-coder']);
    await page.getByTestId('provider-all').click();

    await chooseOption(page, 'catalogue-capability', text(language, 'about.capability.npc'));
    const npc = CATALOGUE.filter((entry) => entry.power === 'npc').map((entry) => entry.name);
    await expect.poll(() => rowNames(page)).toEqual(npc);

    await chooseOption(page, 'catalogue-popularity', text(language, 'about.filter.stars', { count: 4 }));
    await page.getByText(text(language, 'about.empty')).waitFor();
    await view.close();
  });
});

describe('model list for a signed-in user', () => {
  it("shows only the models the server offers to the user's group", async () => {
    const created = await suite.stack.root.post('/api/channel/', {
      name: 'e2e channel',
      type: 1,
      key: 'sk-e2e-not-used',
      // Never called; loopback all the same, so nothing here can reach the network.
      base_url: 'http://127.0.0.1:9',
      other: '',
      model_mapping: '',
      system_prompt: '',
      models: 'gpt-4o,deepseek-chat,not-in-catalogue',
      group: 'default',
      config: '{}',
    });
    expect(created.body.success).toBe(true);
    const view = await suite.open({ width: 1280, language: 'en' });
    const { page } = view;
    await signInThroughApi(page, 'root', '123456');
    await page.goto('/about');
    await page
      .getByTestId('catalogue-count')
      .getByText(text('en', 'about.loadedCount', { count: 2 }))
      .waitFor();
    expect((await rowNames(page)).sort()).toEqual(['deepseek-chat', 'gpt-4o']);
    await view.close();
  });
});
