import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { repositoryRoot } from '../support/paths.ts';

/** The part-2 journeys run at a wide and a narrow viewport, one language each. */
export const VIEWPORTS = [
  { width: 1280, language: 'zh-CN' as const },
  { width: 375, language: 'en' as const },
];

/** The table row that contains a text. */
export const rowWith = (page: Page, content: string): Locator =>
  page.locator('tr.ant-table-row', { hasText: content }).first();

/** Confirms the open Popconfirm. */
export async function confirmPopup(page: Page): Promise<void> {
  await page.locator('.ant-popconfirm .ant-btn-primary').last().click();
}

/** Saves a README screenshot under docs/screenshots/ when asked to (E2E_SCREENSHOTS=1), so test runs leave the tree clean. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.E2E_SCREENSHOTS !== '1') return;
  const folder = join(repositoryRoot, 'docs', 'screenshots');
  mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: join(folder, `${name}.png`), fullPage: false });
}

/** Moves the pointer off the toast stack and waits until the toasts are gone, so they cover no button. */
export async function clearToasts(page: Page): Promise<void> {
  const size = page.viewportSize();
  await page.mouse.move(2, (size?.height ?? 600) - 2);
  await page.locator('.ant-notification-notice').first().waitFor({ state: 'detached', timeout: 15_000 });
}

/** A label that must match the whole accessible name. */
export const whole = (pattern: RegExp): RegExp => new RegExp(`^${pattern.source}$`);
