import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { label, signInThroughApi, VIEWPORTS } from '../support/browser.ts';
import { useSuite } from '../support/suite.ts';
import { createUser } from '../support/users.ts';

const suite = useSuite();

describe.each(VIEWPORTS)('log export at $width px in $language', ({ width, language }) => {
  it('the Export button downloads the user’s logs as a CSV file', async () => {
    const user = await createUser(suite.stack);
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, user.username, user.password);
    await page.goto('/log');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: label(language, 'log.export.button') }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^logs-\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = await readFile((await download.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [heading] = bytes.subarray(3).toString('utf8').split('\r\n');
    // The user's file has no channel column (13 columns), headed in the browser's language.
    expect(heading!.split(',')).toHaveLength(13);
    expect(heading).toMatch(language === 'en' ? /^time,type,username/ : /^时间,类型,用户名/);
    await view.close();
  });
});
