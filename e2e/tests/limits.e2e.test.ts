import { beforeAll, describe, expect, it, vi } from 'vitest';
import { expectToast, label, signInThroughApi, text, textPattern, type Language } from '../support/browser.ts';
import { useSuite } from '../support/suite.ts';
import { addMockChannel, userWithBalance } from '../support/seed.ts';
import { uniqueName } from '../support/users.ts';
import { rowWith } from './page-helpers.ts';

const suite = useSuite({ upstream: true });
const MODEL = 'limit-model';

beforeAll(async () => {
  // A price for the model: an unpriced one is refused.
  await suite.stack.setOptions({ ModelRatio: JSON.stringify({ [MODEL]: 0.5 }) });
  await addMockChannel(suite, [MODEL]);
});

/**
 * A user with a balance and a monthly budget (set by root), and a token with an rpm, concurrency and daily budget
 * that has made one call through the relay, its charge settled.
 */
async function limitedUser() {
  const { username, password, client } = await userWithBalance(suite, 50_000_000);
  const self = (await client.get('/api/user/self')).body.data as { id: number };
  const budget = await suite.stack.root.put('/api/user/', {
    id: self.id,
    budget_quota: 40_000_000,
    budget_period: 'month',
  });
  expect(budget.body.success).toBe(true);
  const tokenName = uniqueName('t');
  const token = await client.post('/api/token/', {
    name: tokenName,
    remain_quota: 0,
    unlimited_quota: true,
    expired_time: -1,
    rpm_limit: 5,
    concurrency_limit: 2,
    budget_quota: 20_000_000,
    budget_period: 'day',
  });
  expect(token.body.success).toBe(true);
  const relay = await fetch(`${suite.stack.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: {
      authorization: `Bearer sk-${(token.body.data as { key: string }).key}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }),
  });
  expect(relay.status, await relay.clone().text()).toBe(200);
  const logs = async () => ((await client.get('/api/log/self/?type=2')).body.data as unknown[]).length;
  await vi.waitFor(async () => expect(await logs()).toBe(1), { timeout: 15_000, interval: 200 });
  return { username, password, tokenName };
}

const options = async () =>
  Object.fromEntries(
    ((await suite.stack.root.get('/api/option/')).body.data as Array<{ key: string; value: string }>).map((entry) => [
      entry.key,
      entry.value,
    ]),
  );

const VIEWS: ReadonlyArray<{ width: number; language: Language; zone: string }> = [
  { width: 1440, language: 'zh-CN', zone: 'Asia/Shanghai' },
  { width: 375, language: 'en', zone: 'Europe/Berlin' },
];

// Issue 31's console: the group and model defaults and the zone in the settings, usage in the token list, the
// budget next to the balance. Three page loads per view.
describe.each(VIEWS)('limits at $width px in $language', ({ width, language, zone }) => {
  it('root saves GroupLimits and TimeZone in the operation settings', async () => {
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, 'root', '123456');
    await page.goto('/setting');
    await page.getByRole('tab', { name: text(language, 'setting.tabs.operation') }).click();
    const card = page.locator('.ant-card', { hasText: text(language, 'settingAdmin.section.limits') });
    const limits = { vip: { rpm_limit: width, models: { [MODEL]: { tpm_limit: 50_000 } } } };
    await card.getByLabel(text(language, 'settingAdmin.option.GroupLimits')).fill(JSON.stringify(limits));
    // A mistyped zone is told before anything is saved.
    await card.getByLabel(text(language, 'settingAdmin.option.TimeZone')).fill('Mars/Olympus');
    await card.getByRole('button', { name: label(language, 'settingAdmin.save') }).click();
    await expectToast(page, text(language, 'settingAdmin.limits.invalid.timeZone'));
    expect((await options()).TimeZone).not.toBe('Mars/Olympus');
    await card.getByLabel(text(language, 'settingAdmin.option.TimeZone')).fill(zone);
    await card.getByRole('button', { name: label(language, 'settingAdmin.save') }).click();
    await expectToast(page, text(language, 'settingAdmin.toast.saved'));
    await expect.poll(async () => (await options()).TimeZone).toBe(zone);
    expect(JSON.parse((await options()).GroupLimits ?? '')).toEqual(limits);
    await view.close();
  });

  it('a user sees the token’s use of its limits in the list, and the budget next to the balance', async () => {
    const user = await limitedUser();
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, user.username, user.password);
    await page.goto('/token');
    const row = rowWith(page, user.tokenName);
    await expect
      .poll(() => row.textContent())
      .toContain(text(language, 'token.limitsUsage.rpm', { used: 1, limit: 5 }));
    const cell = await row.textContent();
    expect(cell).toContain(text(language, 'token.limitsUsage.concurrency', { used: 0, limit: 2 }));
    expect(cell).toMatch(textPattern(language, 'token.limitsUsage.budget.day', { spent: /\S+/, quota: /\S+/ }));
    // No tokens-per-minute limit on this token: none shown.
    expect(cell).not.toContain('TPM');
    await page.goto('/topup');
    await expect
      .poll(() => page.getByTestId('budget-line').textContent())
      .toMatch(textPattern(language, 'topup.budget.month', { spent: /\S+/, quota: /\S+/ }));
    await view.close();
  });
});
