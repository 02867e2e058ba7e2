import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { label, signInThroughApi, text, VIEWPORTS } from '../support/browser.ts';
import { useSuite } from '../support/suite.ts';
import { uniqueName } from '../support/users.ts';
import { rowWith } from './page-helpers.ts';

const suite = useSuite();

describe.each(VIEWPORTS)('the audit page at $width px in $language', ({ width, language }) => {
  const t = (key: string, values?: Record<string, string | number>) => text(language, key, values);

  it('lists an admin write with its before → after, filters, verifies the chain and exports CSV', async () => {
    const notice = uniqueName('notice');
    expect((await suite.stack.root.put('/api/option/', { key: 'Notice', value: notice })).body.success).toBe(true);
    expect(
      (await suite.stack.root.put('/api/option/', { key: 'SMTPToken', value: 'smtp-e2e-secret' })).body.success,
    ).toBe(true);

    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, 'root', '123456');
    await page.goto('/audit');
    await expect.poll(() => page.getByRole('heading', { name: t('audit.title') }).count()).toBe(1);
    const row = rowWith(page, notice);
    await row.waitFor();
    expect(await row.textContent()).toContain('option.update');
    expect(await row.getByTestId('audit-changes').textContent()).toContain(`Notice:`);
    const secretRow = rowWith(page, '*** (changed)');
    await secretRow.waitFor();
    expect(await page.content()).not.toContain('smtp-e2e-secret');

    await page.getByLabel(t('audit.filter.action'), { exact: true }).fill('user');
    await page.getByRole('button', { name: label(language, 'audit.filter.apply') }).click();
    await expect.poll(() => page.getByText(notice).count()).toBe(0);
    await page.getByLabel(t('audit.filter.action'), { exact: true }).fill('option');
    await page.getByRole('button', { name: label(language, 'audit.filter.apply') }).click();
    await rowWith(page, notice).waitFor();

    await page.getByRole('button', { name: label(language, 'audit.verify.button') }).click();
    const verdict = page.getByTestId('audit-verify-result');
    await verdict.waitFor();
    const checked = (await suite.stack.root.get('/api/audit/verify')).body.data.checked as number;
    expect(await verdict.textContent()).toContain(t('audit.verify.ok', { count: checked }));

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: label(language, 'audit.export') }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^audit-\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = await readFile((await download.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const csv = bytes.subarray(3).toString('utf8');
    expect(csv).toContain(notice);
    expect(csv).not.toContain('smtp-e2e-secret');
    await view.close();
  });
});
