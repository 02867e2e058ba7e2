import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { forgetToasts, label, settledPopup, text, type Language } from '../support/browser.ts';
import { repositoryRoot } from '../support/paths.ts';

/** A row of a server list: a table row on wide screens, a card on phones (600 px wide or less). */
export const LIST_ROW = 'tr.ant-table-row, [data-testid="row-card"]';

/** A row's cells: table cells, or a card's values. */
export const ROW_CELL = 'td, [data-testid="row-card-value"]';

/** The list row (table row or card) that contains a text. */
export const rowWith = (page: Page, content: string): Locator => page.locator(LIST_ROW, { hasText: content }).first();

/** Confirms the open Popconfirm once it shows this question (when given) and has finished zooming in. */
export async function confirmPopup(page: Page, question?: string): Promise<void> {
  const popup = settledPopup(page, '.ant-popconfirm');
  await (question ? popup.getByText(question) : popup).waitFor();
  await popup.locator('.ant-btn-primary').click();
}

/** Saves a README screenshot under docs/screenshots/ when asked to (E2E_SCREENSHOTS=1), so test runs leave the tree clean. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.E2E_SCREENSHOTS !== '1') return;
  const folder = join(repositoryRoot, 'docs', 'screenshots');
  mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: join(folder, `${name}.png`), fullPage: false });
}

/**
 * Moves the pointer off the toast stack and waits until the toasts are gone, so they cover no button; expectToast
 * then looks only at later toasts.
 */
export async function clearToasts(page: Page): Promise<void> {
  const size = page.viewportSize();
  await page.mouse.move(2, (size?.height ?? 600) - 2);
  await page.locator('.ant-notification-notice').first().waitFor({ state: 'detached', timeout: 15_000 });
  await forgetToasts(page);
}

/** A label that must match the whole accessible name. */
export const whole = (pattern: RegExp): RegExp => new RegExp(`^${pattern.source}$`);

/** Signs out through the header: the account dropdown on a wide screen, the folded menu on a phone. */
export async function signOutThroughMenu(page: Page, width: number, language: Language): Promise<void> {
  if (width <= 600) {
    await page.getByTestId('menu-toggle').click();
    await page
      .getByTestId('mobile-menu')
      .getByRole('button', { name: label(language, 'header.account.logout') })
      .click();
  } else {
    await page.getByTestId('account-menu').click();
    await settledPopup(page, '.ant-dropdown')
      .getByRole('menuitem', { name: text(language, 'header.account.logout') })
      .click();
  }
  await page.waitForURL('**/login');
}
