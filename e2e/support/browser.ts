import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
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

/** The same at 1440 px, the width issue 33 names for a desktop, for the screens it checks. */
export const MATRIX_1440: ReadonlyArray<{ width: number; language: Language }> = MATRIX.map(({ width, language }) => ({
  width: width === 1280 ? 1440 : width,
  language,
}));

/** Most journeys: wide in Chinese and narrow in English. */
export const VIEWPORTS: ReadonlyArray<{ width: number; language: Language }> = [
  { width: 1280, language: 'zh-CN' },
  { width: 375, language: 'en' },
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
  await context.addInitScript(recordToasts);
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

/**
 * An antd popup (popconfirm, dropdown menu, select list, modal) that is open and has finished moving in. antd zooms
 * or slides a popup in over 0.2 to 0.3 s, and its buttons move meanwhile (a popconfirm's OK by some 40 px); the first
 * frame of the zoom is drawn twice, which can pass Playwright's stability check, so a click made then can press in
 * one place and release in another, and nothing is chosen or confirmed.
 */
export function settledPopup(page: Page, selector: string): Locator {
  return page
    .locator(
      `${selector}:not([class*="-hidden"]):not([class*="-appear"]):not([class*="-enter"]):not([class*="-leave"])`,
    )
    .last();
}

/** The server's answer to a console call: { success, message, data }. */
export interface ApiAnswer<T = unknown> {
  success: boolean;
  message: string;
  data: T;
}

/**
 * The answer to the page's next call of an API (method and path, without the query); call it before the action that
 * makes the call. A test that waits for this waits on the server, not on a toast.
 */
export async function nextApiAnswer<T = unknown>(page: Page, method: string, path: string): Promise<ApiAnswer<T>> {
  const response = await page.waitForResponse(
    (candidate) => candidate.request().method() === method && new URL(candidate.url()).pathname === path,
  );
  return (await response.json()) as ApiAnswer<T>;
}

/** What recordToasts keeps on the console's window: every toast text in the order shown, and an id per document. */
interface ToastRecord {
  document: string;
  texts: string[];
}

/**
 * Runs in every new document (an init script): notes the text of each toast the moment antd adds it, so a test
 * can check a toast after it has gone. A success toast stays about 1.7 s, and a test that looks for it only once
 * its click has returned can miss it entirely on a busy machine.
 */
function recordToasts(): void {
  if (window.top !== window) return;
  const record: ToastRecord = { document: Math.random().toString(36).slice(2), texts: [] };
  Object.defineProperty(window, '__e2eToasts', { value: record });
  const noted = new WeakSet<Element>();
  new MutationObserver(() => {
    for (const notice of document.querySelectorAll('.ant-notification-notice')) {
      const content = notice.textContent ?? '';
      if (noted.has(notice) || content === '') continue;
      noted.add(notice);
      record.texts.push(content);
    }
  }).observe(document, { childList: true, subtree: true });
}

/** Per page: the document and the index in its record after which the next expected toast is looked for. */
const toastCursors = new WeakMap<Page, { document: string; next: number }>();

async function readToasts(page: Page): Promise<ToastRecord | null> {
  try {
    return await page.evaluate(() => (window as unknown as { __e2eToasts?: ToastRecord }).__e2eToasts ?? null);
  } catch {
    return null; // the page is between two documents
  }
}

/**
 * Expects a toast with this text (or matching this pattern) to be shown: one shown since the toast the last
 * expectToast on this page matched (or since forgetToasts, or since the document loaded). It reads the page's
 * record of toasts, so a toast that has already gone, or is covered, still counts.
 */
export async function expectToast(page: Page, content: string | RegExp, timeout = 10_000): Promise<void> {
  const matches = (shown: string) => (typeof content === 'string' ? shown.includes(content) : content.test(shown));
  const deadline = Date.now() + timeout;
  let record: ToastRecord | null = null;
  for (;;) {
    record = await readToasts(page);
    if (record) {
      const cursor = toastCursors.get(page);
      const from = cursor?.document === record.document ? cursor.next : 0;
      const index = record.texts.findIndex((shown, position) => position >= from && matches(shown));
      if (index >= 0) {
        toastCursors.set(page, { document: record.document, next: index + 1 });
        return;
      }
    }
    if (Date.now() > deadline) {
      throw new Error(
        `no toast ${String(content)} within ${timeout} ms; shown: ${JSON.stringify(record?.texts ?? [])}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Makes expectToast look only at toasts shown from now on. */
export async function forgetToasts(page: Page): Promise<void> {
  const record = await readToasts(page);
  if (record) toastCursors.set(page, { document: record.document, next: record.texts.length });
}

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The console's text for a key as a pattern, where some values are only known by their shape ({ count: /\d+/ }). */
export function textPattern(language: Language, key: string, values: Record<string, string | number | RegExp>): RegExp {
  const template = texts[language][key];
  if (template === undefined) throw new Error(`no text for ${key}`);
  return new RegExp(
    template
      .split(/(\{\{\w+\}\})/)
      .map((part) => {
        const name = /^\{\{(\w+)\}\}$/.exec(part)?.[1];
        if (name === undefined) return escapeRegExp(part);
        const value = values[name] ?? '';
        return value instanceof RegExp ? value.source : escapeRegExp(String(value));
      })
      .join(''),
  );
}

/** Matches a label even when antd spaces out two-character Chinese button texts ('登 录'). */
export function label(language: Language, key: string, values?: Record<string, string | number>): RegExp {
  const value = text(language, key, values);
  return new RegExp([...value].map(escapeRegExp).join('\\s?'));
}

/** `label`, but the whole accessible name: the sign-in button beside "sign in with a passkey". */
export function exactLabel(language: Language, key: string, values?: Record<string, string | number>): RegExp {
  return new RegExp(`^\\s*${label(language, key, values).source}\\s*$`);
}
