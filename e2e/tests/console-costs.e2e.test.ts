import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { signInThroughApi, text, VIEWPORTS } from '../support/browser.ts';
import { useSuite } from '../support/suite.ts';
import { addMockChannel, userWithBalance } from '../support/seed.ts';
import { uniqueName } from '../support/users.ts';
import { ROW_CELL, rowWith } from './page-helpers.ts';

const suite = useSuite({ upstream: true });

/** Quota units per dollar: the server's default QuotaPerUnit. */
const PER_DOLLAR = 500_000;

interface Spender {
  username: string;
  password: string;
  tokenName: string;
  /** The quota of each call, as the consume logs have it. */
  calls: number[];
}

/** The dollar text a quota should read as, worked out here on its own: 2 decimals from $1, else 3 significant digits. */
function dollars(quota: number): string {
  const amount = quota / PER_DOLLAR;
  if (amount >= 1 || amount === 0) return `$${amount.toFixed(2)}`;
  const digits = Number(amount.toPrecision(3)).toString();
  return `$${/\.\d$/.test(digits) ? `${digits}0` : digits}`;
}

/**
 * A user with a balance from a redemption code and a token, who makes calls through the relay to the mock vendor;
 * each call's usage is set on the vendor, so its quota is known: (prompt + completion) × the model's ratio.
 */
async function spender(balance: number, model: string, usages: Array<[number, number]>): Promise<Spender> {
  const { username, password, client } = await userWithBalance(suite, balance);
  const tokenName = uniqueName('t');
  const token = (
    await client.post('/api/token/', { name: tokenName, remain_quota: 0, unlimited_quota: true, expired_time: -1 })
  ).body.data as { key: string };
  for (const [prompt, completion] of usages) {
    suite.upstream.set({ usage: { prompt_tokens: prompt, completion_tokens: completion } });
    const relay = await fetch(`${suite.stack.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 200 }),
    });
    expect(relay.status).toBe(200);
  }
  suite.upstream.reset();
  const logs = async () =>
    ((await client.get('/api/log/self/?type=2')).body.data as Array<{ quota: number }>).map((log) => log.quota);
  // Settled just after each answer: wait for the logs (expect.poll is for tests, this runs in a hook).
  await vi.waitFor(async () => expect(await logs()).toHaveLength(usages.length), { timeout: 15_000, interval: 200 });
  return { username, password, tokenName, calls: (await logs()).reverse() };
}

/** The amounts on the usage chart's value axis, from the bottom up. */
const axisTicks = (page: Page) =>
  page
    .getByTestId('usage-chart')
    .locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value')
    .allTextContents();

let tiny: Spender;
let large: Spender;

beforeAll(async () => {
  // Ratios that make each call's quota exact: a tiny model (7 units, one-api's gpt-4o-mini hello) and a dear one.
  await suite.stack.setOptions({
    DisplayInCurrencyEnabled: true,
    QuotaPerUnit: PER_DOLLAR,
    ModelRatio: JSON.stringify({ 'tiny-model': 0.5, 'dear-model': 25_000 }),
    CompletionRatio: JSON.stringify({ 'tiny-model': 1, 'dear-model': 1 }),
  });
  await addMockChannel(suite, ['tiny-model', 'dear-model']);
  tiny = await spender(PER_DOLLAR, 'tiny-model', [[10, 4]]);
  large = await spender(1_000 * PER_DOLLAR, 'dear-model', [
    [100, 100],
    [37, 0],
  ]);
  expect(tiny.calls).toEqual([7]);
  expect(large.calls).toEqual([5_000_000, 925_000]);
});

describe('the formula of the test itself', () => {
  it('reads amounts as the console should', () => {
    expect(dollars(0)).toBe('$0.00');
    expect(dollars(7)).toBe('$0.000014');
    expect(dollars(250_000)).toBe('$0.50');
    expect(dollars(5_925_000)).toBe('$11.85');
  });
});

describe.each(VIEWPORTS)('costs at $width px in $language', ({ width, language }) => {
  it('shows a tiny spender every amount with its digits: log, sum, chart axis and tooltip, token, top-up', async () => {
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, tiny.username, tiny.password);
    await page.goto('/log');
    const row = rowWith(page, tiny.tokenName);
    await row.waitFor();
    expect(await row.locator(ROW_CELL).allInnerTexts()).toContain('$0.000014');
    await page.getByText(text(language, 'log.stat.quota')).waitFor();
    await page.locator('.ant-statistic-content', { hasText: '$0.000014' }).waitFor();

    await page.getByTestId('usage-chart').locator('.recharts-bar-rectangle').first().waitFor();
    await expect.poll(async () => (await axisTicks(page)).length).toBeGreaterThanOrEqual(2);
    const ticks = await axisTicks(page);
    // Every tick is its own amount, in whole units of quota, and the top one reaches the call's cost.
    expect(new Set(ticks).size).toBe(ticks.length);
    expect(ticks.filter((tick) => tick === '$0.00').length).toBeLessThanOrEqual(1);
    const units = ticks.map((tick) => Math.round(Number(tick.replace('$', '')) * PER_DOLLAR));
    expect(units.map(dollars)).toEqual(ticks);
    expect(Math.max(...units)).toBeGreaterThanOrEqual(7);

    const bar = page.getByTestId('usage-chart').locator('.recharts-bar-rectangle').first();
    await bar.hover();
    await page.locator('.recharts-tooltip-wrapper', { hasText: '$0.000014' }).waitFor();

    await page.goto('/token');
    await expect.poll(() => rowWith(page, tiny.tokenName).locator(ROW_CELL).allInnerTexts()).toContain('$0.000014');
    await page.goto('/topup');
    await page.getByTestId('consumed-circle').getByText('$0.000014').waitFor();
    await view.close();
  });

  it('shows a large spender plain 2 decimals and round ticks', async () => {
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, large.username, large.password);
    await page.goto('/log');
    await page.locator('.ant-statistic-content', { hasText: '$11.85' }).waitFor();
    const cells = async () =>
      (await page.locator(ROW_CELL).allInnerTexts()).filter((cell) => /^\$\d/.test(cell.trim()));
    await expect.poll(cells).toEqual(expect.arrayContaining(['$10.00', '$1.85']));

    await page.getByTestId('usage-chart').locator('.recharts-bar-rectangle').first().waitFor();
    await expect.poll(async () => (await axisTicks(page)).length).toBeGreaterThanOrEqual(2);
    const ticks = await axisTicks(page);
    expect(new Set(ticks).size).toBe(ticks.length);
    for (const tick of ticks) expect(tick).toMatch(/^\$\d+\.\d\d$/);
    expect(Math.max(...ticks.map((tick) => Number(tick.slice(1))))).toBeGreaterThanOrEqual(11.85);
    await view.close();
  });
});
