import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import en from '../../web/src/i18n/locales/en/index.ts';
import zhCN from '../../web/src/i18n/locales/zh-CN/index.ts';

export type Language = 'zh-CN' | 'en';

/** The viewports and languages every screen is checked in. */
export const MATRIX: ReadonlyArray<{ width: number; language: Language }> = [
  { width: 1280, language: 'zh-CN' },
  { width: 375, language: 'en' },
  { width: 1280, language: 'en' },
  { width: 375, language: 'zh-CN' },
];

const texts: Record<Language, Record<string, string>> = { 'zh-CN': zhCN, en };

/** The console's text for a key in a language, with {{name}} values filled in. */
export function text(language: Language, key: string, values: Record<string, string | number> = {}): string {
  const template = texts[language][key];
  if (template === undefined) throw new Error(`no text for ${key}`);
  return template.replace(/\{\{(\w+)\}\}/g, (_match, name: string) => String(values[name] ?? ''));
}

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface ConsolePage {
  page: Page;
  context: BrowserContext;
  language: Language;
  /** Console errors and uncaught page errors seen so far. */
  errors: string[];
  /** Console errors that match are expected (e.g. the browser logging an intended 401). */
  allow(pattern: RegExp): void;
  /** Fails when any unexpected console error happened; closes the context. */
  close(): Promise<void>;
}

export interface OpenOptions {
  width?: number;
  language?: Language;
  /** Set the language before every navigation (off for the language-switch test). */
  pinLanguage?: boolean;
}

export async function openPage(browser: Browser, baseUrl: string, options: OpenOptions = {}): Promise<ConsolePage> {
  const width = options.width ?? 1280;
  const language = options.language ?? 'zh-CN';
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width, height: width <= 600 ? 800 : 900 },
    locale: language,
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  if (options.pinLanguage !== false) {
    await context.addInitScript((value) => {
      // Only the console's own top document; embedded third-party frames may not touch storage.
      if (window.top !== window) return;
      try {
        localStorage.setItem('language', value);
      } catch {
        // storage refused (opaque origin)
      }
    }, language);
  }
  // Third-party pages the console links to are never reached from here.
  await context.route(/^https:\/\/(github\.com|open\.feishu\.cn|challenges\.cloudflare\.com)\//, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>third party</title>' }),
  );
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const errors: string[] = [];
  const allowed: RegExp[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  return {
    page,
    context,
    language,
    errors,
    allow: (pattern) => allowed.push(pattern),
    async close() {
      const unexpected = errors.filter((error) => !allowed.some((pattern) => pattern.test(error)));
      await context.close();
      if (unexpected.length > 0) throw new Error(`console errors:\n${unexpected.join('\n')}`);
    },
  };
}

/** Signs the browser in through the API (session cookie) and stores the user as the console does. */
export async function signInThroughApi(page: Page, username: string, password: string): Promise<void> {
  if (!page.url().startsWith('http')) await page.goto('/about');
  const ok = await page.evaluate(
    async ({ username, password }) => {
      const response = await fetch('/api/user/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password }),
      });
      const body = (await response.json()) as { success: boolean; data: unknown };
      if (body.success) localStorage.setItem('user', JSON.stringify(body.data));
      return body.success;
    },
    { username, password },
  );
  if (!ok) throw new Error(`sign-in as ${username} failed`);
}

/** The last toast's text. */
export async function toastText(page: Page): Promise<string> {
  const toast = page.locator('.ant-notification-notice').last();
  await toast.waitFor();
  return (await toast.textContent()) ?? '';
}

/** Expects a toast with this text to appear. */
export async function expectToast(page: Page, content: string): Promise<void> {
  await page.locator('.ant-notification-notice', { hasText: content }).first().waitFor({ timeout: 10_000 });
}

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Matches a label even when antd spaces out two-character Chinese button texts ('登 录'). */
export function label(language: Language, key: string, values?: Record<string, string | number>): RegExp {
  const value = text(language, key, values);
  return new RegExp([...value].map(escapeRegExp).join('\\s?'));
}
