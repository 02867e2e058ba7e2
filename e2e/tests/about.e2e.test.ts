import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PricingList } from '@modelgate/wire';
import { priceInUnit } from '../../web/src/lib/price.ts';
import { CATALOGUE } from '../../web/src/pages/about/catalogue.data.ts';
import { settledPopup, signInThroughApi, text, VIEWPORTS } from '../support/browser.ts';
import { useSuite } from '../support/suite.ts';
import { createUser } from '../support/users.ts';

const suite = useSuite();

// Visitors see the default group's models (where a new account starts): one channel of that group serves the whole
// catalogue; a user of the vip group sees only its channel's models, at its group ratio.
beforeAll(async () => {
  await suite.stack.setOptions({ GroupRatio: JSON.stringify({ default: 1, vip: 2 }) });
  const created = await suite.stack.root.post('/api/channel/', {
    name: 'e2e catalogue channel',
    type: 1,
    key: 'sk-e2e-not-used',
    base_url: 'http://127.0.0.1:9',
    other: '',
    model_mapping: '',
    system_prompt: '',
    models: CATALOGUE.map((entry) => entry.key).join(','),
    group: 'default',
    config: '{}',
  });
  expect(created.body.success).toBe(true);
});

/** The models listed: the table's first column, or each card's name on a phone. */
const rowNames = (page: Page) =>
  page.locator('.ant-table-tbody tr.ant-table-row td:first-child, [data-testid="catalogue-card-name"]').allInnerTexts();

async function chooseOption(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await settledPopup(page, '.ant-select-dropdown')
    .locator('.ant-select-item-option', { hasText: option })
    .first()
    .click();
}

describe.each(VIEWPORTS)('model list at $width px in $language', ({ width, language }) => {
  it("shows visitors the default group's models (here the whole catalogue) with working filters", async () => {
    const view = await suite.open({ width, language });
    const { page } = view;
    await page.goto('/about');
    await page
      .getByTestId('catalogue-count')
      .getByText(text(language, 'about.loadedCount', { count: CATALOGUE.length }))
      .waitFor();

    await page.getByTestId('catalogue-search').fill('GPT-4O-MINI');
    await expect.poll(() => rowNames(page)).toEqual(['gpt-4o-mini', 'gpt-4o-mini-2024-07-18']);
    // The price /api/pricing gives: per 1M by default; per 1K divides by 1000; both with 4 decimals.
    const pricing = (await (await fetch(`${suite.stack.baseUrl}/api/pricing`)).json()).data as PricingList;
    const mini = pricing.models.find((model) => model.model === 'gpt-4o-mini')?.price?.input ?? NaN;
    expect(mini).toBeGreaterThan(0);
    const firstRow = page.locator('.ant-table-tbody tr.ant-table-row, [data-testid="catalogue-card"]').first();
    await firstRow
      .getByText(text(language, 'about.price.input', { price: `$${priceInUnit(mini, '1M')} / 1M` }))
      .waitFor();
    await page.getByTestId('catalogue-unit').getByText(text(language, 'about.filter.per1K')).click();
    await firstRow
      .getByText(text(language, 'about.price.input', { price: `$${priceInUnit(mini, '1K')} / 1K` }))
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
  it("shows only the models the server offers to the user's group, at its prices, models the list lacks too", async () => {
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
      group: 'vip',
      config: '{}',
    });
    expect(created.body.success).toBe(true);
    const { username, password } = await createUser(suite.stack);
    const found = await suite.stack.root.get(`/api/user/search?keyword=${username}`);
    const id = (found.body.data as Array<{ id: number }>)[0]!.id;
    expect((await suite.stack.root.put('/api/user/', { id, username, group: 'vip' })).body.success).toBe(true);

    const view = await suite.open({ width: 1280, language: 'en' });
    const { page } = view;
    await signInThroughApi(page, username, password);
    await page.goto('/about');
    await page
      .getByTestId('catalogue-count')
      .getByText(text('en', 'about.loadedCount', { count: 3 }))
      .waitFor();
    // The list's models in its order, then the one it lacks, with no provider it could name.
    expect(await rowNames(page)).toEqual(['gpt-4o', 'deepseek-chat', 'not-in-catalogue']);
    const unknown = page.locator('.ant-table-tbody tr.ant-table-row', { hasText: 'not-in-catalogue' });
    await unknown.getByText(text('en', 'common.unknown'), { exact: true }).first().waitFor();
    // gpt-4o at the vip group's ratio 2: twice its list price.
    const gpt = page.locator('.ant-table-tbody tr.ant-table-row').first();
    await gpt.getByText(text('en', 'about.multiplier.group', { value: 2 })).waitFor();
    const client = suite.stack.client();
    await client.login(username, password);
    const pricing = (await client.get('/api/pricing')).body.data as PricingList;
    expect(pricing).toMatchObject({ group: 'vip', group_ratio: 2 });
    const input = pricing.models.find((model) => model.model === 'gpt-4o')?.price?.input ?? NaN;
    await gpt.getByText(text('en', 'about.price.input', { price: `$${priceInUnit(input, '1M')} / 1M` })).waitFor();
    await view.close();
  });
});
