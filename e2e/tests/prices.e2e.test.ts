import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ModelPricing, PricingList } from '@modelgate/wire';
import { formatUsd, priceInUnit, tokensShort, type PriceUnit } from '../../web/src/lib/price.ts';
import {
  expectToast,
  label,
  settledPopup,
  signInThroughApi,
  text,
  VIEWPORTS,
  type Language,
} from '../support/browser.ts';
import { useSuite } from '../support/suite.ts';
import { uniqueName } from '../support/users.ts';
import { addMockChannel } from '../support/seed.ts';
import { LIST_ROW } from './page-helpers.ts';

const suite = useSuite({ upstream: true });

/** The mock vendor's usage of every call (its default). */
const PROMPT_TOKENS = 12;
const COMPLETION_TOKENS = 5;
const PER_DOLLAR = 500_000;

/** Served on an OpenAI channel: two models the built-in price list prices, and one nothing prices. */
const MODELS = ['gpt-4o-mini', 'gpt-4o', 'unpriced-model'];

const tokenName = uniqueName('tk');
let apiKey = '';

interface ConsumeLog {
  id: number;
  quota: number;
  model_name: string;
  other: string;
}

const consumeLogs = async () =>
  (await suite.stack.root.get(`/api/log/?type=2&token_name=${tokenName}`)).body.data as ConsumeLog[];

/** Calls a model through the relay as root and returns the consume log it wrote (its charge and receipt). */
async function call(model: string): Promise<ConsumeLog> {
  const before = (await consumeLogs()).length;
  const answer = await fetch(`${suite.stack.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer sk-${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  });
  expect(answer.status, await answer.clone().text()).toBe(200);
  await answer.arrayBuffer();
  await vi.waitFor(async () => expect((await consumeLogs()).length).toBe(before + 1), { timeout: 15_000 });
  return (await consumeLogs())[0]!;
}

beforeAll(async () => {
  // Raw quota numbers: the receipt's lines and the log's quota column compare as integers.
  await suite.stack.setOptions({ DisplayInCurrencyEnabled: false, QuotaPerUnit: PER_DOLLAR });
  await addMockChannel(suite, MODELS);
  const token = await suite.stack.root.post('/api/token/', {
    name: tokenName,
    remain_quota: 0,
    unlimited_quota: true,
    expired_time: -1,
  });
  expect(token.body.success).toBe(true);
  apiKey = (token.body.data as { key: string }).key;
});

/** Opens the receipt of the newest consume log in the usage log and reads its lines' quotas and its total. */
async function openNewestReceipt(page: Page): Promise<{ lines: number[]; total: number; texts: string[] }> {
  await page.goto('/log');
  const row = page.locator(LIST_ROW).first();
  await row.getByTestId('receipt-button').click();
  const receipt = settledPopup(page, '.ant-popover').getByTestId('receipt');
  await receipt.waitFor();
  const lines = (await receipt.getByTestId('receipt-line-quota').allInnerTexts()).map(Number);
  const total = Number(await receipt.getByTestId('receipt-total-quota').innerText());
  return { lines, total, texts: await receipt.getByTestId('receipt-line').allInnerTexts() };
}

describe.each(VIEWPORTS)('prices at $width px in $language', ({ width, language }) => {
  const t = (key: string, values?: Record<string, string | number>) => text(language, key, values);

  it("shows a call's receipt in the usage log, its lines adding up to the row's charge", async () => {
    const log = await call('gpt-4o-mini');
    expect(log.quota).toBeGreaterThan(0);
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, 'root', '123456');
    const receipt = await openNewestReceipt(page);
    expect(receipt.lines).toHaveLength(2);
    expect(receipt.lines.reduce((sum, quota) => sum + quota, 0)).toBe(log.quota);
    expect(receipt.total).toBe(log.quota);
    expect(receipt.texts[0]).toContain(t('log.receipt.item.input'));
    expect(receipt.texts[0]).toContain(String(PROMPT_TOKENS));
    expect(receipt.texts[1]).toContain(t('log.receipt.item.output'));
    await view.close();
  });

  it('shows on /about the prices /api/pricing gives, per 1M and per 1K tokens', async () => {
    const view = await suite.open({ width, language });
    const { page } = view;
    await page.goto('/about');
    const pricing = (await (await fetch(`${suite.stack.baseUrl}/api/pricing`)).json()).data as PricingList;
    expect(pricing.models.map((model) => model.model).sort()).toEqual([...MODELS].sort());
    await expectCataloguePrices(page, language, pricing.models, '1M');
    await page.getByTestId('catalogue-unit').getByText(text(language, 'about.filter.per1K')).click();
    await expectCataloguePrices(page, language, pricing.models, '1K');
    await view.close();
  });
});

/**
 * Each model's row (a card on a phone) on /about reads the input and output prices of /api/pricing (or says it is
 * unpriced).
 */
async function expectCataloguePrices(page: Page, language: Language, models: ModelPricing[], unit: PriceUnit) {
  for (const model of models) {
    const row = page
      .locator('.ant-table-tbody tr.ant-table-row, [data-testid="catalogue-card"]', {
        hasText: model.model,
      })
      .filter({
        has: page.getByText(model.model, { exact: true }),
      });
    const cell = row.getByTestId('catalogue-price');
    if (!model.price) {
      await row.getByText(text(language, 'about.price.unpriced'), { exact: true }).waitFor();
      continue;
    }
    const inUnit = (value: number) => text(language, `about.price.per${unit}`, { price: priceInUnit(value, unit) });
    await cell.getByText(text(language, 'about.price.input', { price: inUnit(model.price.input ?? 0) })).waitFor();
    await cell.getByText(text(language, 'about.price.output', { price: inUnit(model.price.output ?? 0) })).waitFor();
  }
}

describe.each([
  { ...VIEWPORTS[0]!, input: 4, output: 8 },
  { ...VIEWPORTS[1]!, input: 6, output: 9 },
])('the price settings at $width px in $language', ({ width, language, input, output }) => {
  const t = (key: string, values?: Record<string, string | number>) => text(language, key, values);

  it('edits a price, and the next call is charged by it, as its receipt and /about say', async () => {
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, 'root', '123456');
    await page.goto('/setting?tab=operation');
    const settings = page.getByTestId('price-setting');
    await settings.getByLabel(t('price.search'), { exact: true }).fill('gpt-4o-mini');
    const row = settings.locator(LIST_ROW, { hasText: 'gpt-4o-mini' }).first();
    await row.getByRole('button', { name: label(language, 'price.action.edit') }).click();
    const dialog = settledPopup(page, '.ant-modal');
    await dialog.getByLabel(t('price.form.model'), { exact: true }).waitFor();
    expect(await dialog.getByLabel(t('price.form.model'), { exact: true }).inputValue()).toBe('gpt-4o-mini');
    await dialog.getByLabel(t('price.field.input'), { exact: true }).fill(String(input));
    await dialog.getByLabel(t('price.field.output'), { exact: true }).fill(String(output));
    await dialog.getByRole('button', { name: label(language, 'price.form.save') }).click();
    await expectToast(page, t('price.toast.saved'));
    await row.getByText(t('price.source.admin'), { exact: true }).waitFor();

    // US$ per 1M tokens × 500,000 quota per dollar, rounded up once.
    const expected = Math.ceil(((PROMPT_TOKENS * input + COMPLETION_TOKENS * output) * PER_DOLLAR) / 1_000_000);
    const log = await call('gpt-4o-mini');
    expect(log.quota).toBe(expected);
    const receipt = await openNewestReceipt(page);
    expect(receipt.lines.reduce((sum, quota) => sum + quota, 0)).toBe(expected);
    expect(receipt.texts[0]).toContain(t('log.receipt.unit.usdPerMillion', { price: input }));

    await page.goto('/about');
    // A table row, or a card on a phone.
    const about = page.locator('.ant-table-tbody tr.ant-table-row, [data-testid="catalogue-card"]').filter({
      has: page.getByText('gpt-4o-mini', { exact: true }),
    });
    await about
      .getByText(text(language, 'about.price.input', { price: t('about.price.per1M', { price: input.toFixed(4) }) }))
      .waitFor();
    await view.close();
  });

  it('saves an unchanged ratio section without asking, and lists what a ratio re-prices before saving it', async () => {
    const pricing = async () => (await (await fetch(`${suite.stack.baseUrl}/api/pricing`)).json()).data as PricingList;
    const pricesBefore = await pricing();
    const view = await suite.open({ width, language });
    const { page } = view;
    const optionWrites: string[] = [];
    page.on('request', (request) => {
      if (request.method() !== 'GET' && new URL(request.url()).pathname.startsWith('/api/option')) {
        optionWrites.push(`${request.method()} ${new URL(request.url()).pathname}`);
      }
    });
    await signInThroughApi(page, 'root', '123456');
    await page.goto('/setting?tab=operation');
    const section = page.locator('.ant-card', {
      has: page.getByText(t('settingAdmin.section.ratio'), { exact: true }),
    });
    const modelRatio = section.getByLabel(t('settingAdmin.option.ModelRatio'), { exact: true });
    await modelRatio.waitFor();
    const save = section.getByRole('button', { name: label(language, 'settingAdmin.save') });
    await save.click();
    expect(optionWrites).toEqual([]);

    await modelRatio.fill('{"gpt-4o": 10}');
    await save.click();
    const dialog = settledPopup(page, '.ant-modal');
    const repricing = dialog.getByTestId('ratio-repricing');
    await repricing.waitFor();
    // The unchanged save sent nothing: the only write so far is this edit's preview.
    expect(optionWrites).toEqual(['POST /api/option/preview']);
    const row = repricing.locator('tr.ant-table-row').filter({ has: page.getByText(/^gpt-4o( \(.+\))?$/) });
    await row.first().waitFor();
    const [before, after] = (await row.first().locator('td').allInnerTexts()).slice(1);
    // gpt-4o's built-in list price is $2.5 per 1M input tokens; a ratio of 10 is $20.
    expect(before).toContain('2.5');
    expect(after).toContain('20');
    expect(after).not.toBe(before);
    await dialog.getByRole('button', { name: label(language, 'settingAdmin.ratio.confirm.cancel') }).click();
    await dialog.waitFor({ state: 'hidden' });

    expect(optionWrites).toEqual(['POST /api/option/preview']);
    const options = (await suite.stack.root.get('/api/option/')).body.data as Array<{ key: string; value: string }>;
    expect(options.find((option) => option.key === 'ModelRatio')?.value).toBe('');
    expect(await pricing()).toEqual(pricesBefore);
    await view.close();
  });
});

/** A models.dev file that re-prices both served GPT models and adds cache-read prices: every row has lines. */
const MODELS_DEV = {
  openai: {
    models: {
      'gpt-4o': { cost: { input: 3, output: 12, cache_read: 1.5 } },
      'gpt-4o-mini': { cost: { input: 0.2, output: 0.8, cache_read: 0.1 } },
      'unpriced-model': { cost: { input: 0.5, output: 1.5, cache_read: 0.25, cache_write: 0.75 } },
    },
  },
};

describe.each([
  { width: 1440, language: 'zh-CN' as const },
  { width: 1440, language: 'en' as const },
])('the models.dev import at $width px in $language', ({ width, language }) => {
  const t = (key: string, values?: Record<string, string | number>) => text(language, key, values);

  it('shows the after-column inside the dialog, without scrolling sideways', async () => {
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, 'root', '123456');
    await page.goto('/setting?tab=operation');
    await page
      .getByTestId('price-setting')
      .getByRole('button', { name: label(language, 'price.import') })
      .click();
    const dialog = settledPopup(page, '.ant-modal');
    await dialog.getByText(t('price.import.title'), { exact: true }).waitFor();
    await dialog.locator('input[type="file"]').setInputFiles({
      name: 'api.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(MODELS_DEV)),
    });
    await dialog.getByTestId('price-import-file').waitFor();
    await dialog.getByRole('button', { name: label(language, 'price.import.preview') }).click();
    const preview = dialog.getByTestId('price-import-preview');
    await preview.locator('tr.ant-table-row').first().waitFor();

    const dialogBox = (await dialog.boundingBox())!;
    const afterCells = [
      preview.getByRole('columnheader', { name: t('price.import.column.after'), exact: true }),
      ...(await preview.locator('tr.ant-table-row').all()).map((row) => row.locator('td').last()),
    ];
    expect(afterCells.length).toBe(1 + MODELS.length);
    for (const cell of afterCells) {
      const box = (await cell.boundingBox())!;
      expect(box.width).toBeGreaterThan(0);
      expect(box.x).toBeGreaterThanOrEqual(dialogBox.x);
      expect(box.x + box.width).toBeLessThanOrEqual(dialogBox.x + dialogBox.width);
    }
    const scroller = preview.locator('.ant-table-content').first();
    const overflow = await scroller.evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(overflow).toBe(0);
    await view.close();
  });
});

// Issue 33 point 2: the admin's price table at 1440 px shows per-token and per-call prices, context tiers and the
// price's source with nothing hidden or scrolled sideways; at 375 px each price is a card, its prices on screen.
const PER_CALL = { model: uniqueName('per-call'), price: { per_call: 0.02, per_web_search: 0.01 } };
const TIERED = {
  model: uniqueName('tiered'),
  price: { input: 1, output: 2, cache_read: 0.1, tiers: [{ above: 128_000, input: 2, output: 4 }] },
  note: 'contract 2026',
};

describe.each([
  { width: 1440, language: 'zh-CN' as const },
  { width: 375, language: 'en' as const },
  { width: 1440, language: 'en' as const },
  { width: 375, language: 'zh-CN' as const },
])('the price table at $width px in $language', ({ width, language }) => {
  const t = (key: string, values?: Record<string, string | number>) => text(language, key, values);
  const narrow = width <= 600;

  beforeAll(async () => {
    for (const { model, price, note } of [{ ...PER_CALL, note: '' }, TIERED]) {
      const saved = await suite.stack.root.put('/api/price/', { model, group: '', price, note });
      expect(saved.body.success, saved.body.message).toBe(true);
    }
  });

  it('shows per-call and per-token prices, context tiers and each price’s source, nothing off screen', async () => {
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, 'root', '123456');
    await page.goto('/setting?tab=operation');
    const settings = page.getByTestId('price-setting');
    await settings.locator(LIST_ROW).first().waitFor();
    // The whole page scrolls only downwards, the table (or the cards) never sideways.
    const sideways = (selector: string) =>
      settings
        .locator(selector)
        .first()
        .evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')).toBe(0);
    if (!narrow) expect(await sideways('.ant-table-content')).toBe(0);
    const cardBox = (await settings.boundingBox())!;
    const onScreen = async (locator: ReturnType<Page['locator']>, what: string) => {
      const box = (await locator.boundingBox())!;
      expect(box, what).not.toBeNull();
      expect(box.width, what).toBeGreaterThan(0);
      expect(box.x, what).toBeGreaterThanOrEqual(cardBox.x);
      expect(box.x + box.width, what).toBeLessThanOrEqual(Math.min(cardBox.x + cardBox.width, width));
    };
    const headings = ['source', 'perToken', 'units', 'tiers', 'actions'].map((key) => t(`price.column.${key}`));
    if (!narrow) {
      for (const heading of headings)
        await onScreen(settings.getByRole('columnheader', { name: heading, exact: true }), heading);
    }

    /** A row's value under a heading: its table cell, or the value beside the card's label. */
    const cell = async (model: string, heading: string) => {
      const search = settings.getByLabel(t('price.search'), { exact: true });
      await search.fill(model);
      const row = settings.locator(LIST_ROW, { hasText: model });
      await expect.poll(() => settings.locator(LIST_ROW).count()).toBe(1);
      if (narrow) {
        const field = row.locator('div', { has: page.getByText(heading, { exact: true }) }).last();
        return field.getByTestId('row-card-value');
      }
      const index = (await settings.locator('thead th').allInnerTexts()).indexOf(heading);
      expect(index, heading).toBeGreaterThan(-1);
      return row.locator('td').nth(index);
    };
    const none = t('price.none');

    // Per call only: the per-token column says none, the per-call column has both unit prices.
    const units = await cell(PER_CALL.model, t('price.column.units'));
    expect(await units.innerText()).toContain(t('price.unit.per_call', { price: formatUsd(0.02) }));
    expect(await units.innerText()).toContain(t('price.unit.per_web_search', { price: formatUsd(0.01) }));
    await onScreen(units, 'the per-call prices');
    expect((await (await cell(PER_CALL.model, t('price.column.perToken'))).innerText()).trim()).toBe(none);

    // Per token with a context tier, and the admin's note as its source.
    const amount = (field: string, price: number) =>
      t('price.summary.amount', { name: t(`price.field.${field}`), price: formatUsd(price) });
    const tokens = await cell(TIERED.model, t('price.column.perToken'));
    for (const [field, price] of [
      ['input', 1],
      ['output', 2],
      ['cache_read', 0.1],
    ] as const)
      expect(await tokens.innerText()).toContain(amount(field, price));
    await onScreen(tokens, 'the token prices');
    const tiers = await cell(TIERED.model, t('price.column.tiers'));
    const separator = t('price.summary.separator');
    expect(await tiers.innerText()).toContain(
      t('price.summary.tier', {
        tokens: tokensShort(128_000),
        prices: [amount('input', 2), amount('output', 4)].join(separator),
      }),
    );
    await onScreen(tiers, 'the context tiers');
    const source = await cell(TIERED.model, t('price.column.source'));
    expect(await source.innerText()).toContain(t('price.source.admin'));
    expect(await source.innerText()).toContain(TIERED.note);
    await onScreen(source, 'the source');
    expect((await (await cell(TIERED.model, t('price.column.units'))).innerText()).trim()).toBe(none);
    await view.close();
  });
});
