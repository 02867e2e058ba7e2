import { appendFileSync } from 'node:fs';
import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signInThroughApi, text, type Language } from '../support/browser.ts';
import { useSuite } from '../support/suite.ts';
import { uniqueName } from '../support/users.ts';

const suite = useSuite();

/** What axe checks: WCAG 2.0 and 2.1, levels A and AA, and its best practices (reported, not all enforced). */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
/** The violations that fail the test; moderate and minor ones are counted in the report only. */
const BLOCKING = new Set(['serious', 'critical']);

interface Violation {
  rule: string;
  impact: string;
  /** The CSS selectors of the failing elements. */
  targets: string[];
  /** axe's finding for each failing element (for contrast: the two colours and their ratio). */
  messages: string[];
  /** axe's explanation for the first failing element (the colours and ratio for contrast). */
  summary: string;
}

/**
 * Violations that stay, each with its reason (listed in the README's accessibility section too): the rule, the
 * elements it may name, and why it is not fixed.
 */
const ACCEPTED: ReadonlyArray<{ rule: string; target: RegExp; reason: string }> = [
  {
    rule: 'color-contrast',
    target: /avatar/,
    reason:
      'the model list draws each provider as a letter mark in its brand colour; WCAG 1.4.3 exempts logotypes, ' +
      'and the provider is named in text beside it',
  },
];

const accepted = (violation: Violation, target: string) =>
  ACCEPTED.some((entry) => entry.rule === violation.rule && entry.target.test(target));

/** Runs axe on the page's document (frames such as the chat page's are other sites, not ours). */
async function audit(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate<boolean>("typeof window.axe === 'object'"))) await page.evaluate(axe.source);
  // An expression string: the e2e suite is typed for Node, without the DOM's globals.
  return page.evaluate<Violation[]>(`(async () => {
    const results = await window.axe.run(document, {
      runOnly: { type: 'tag', values: ${JSON.stringify(TAGS)} },
      resultTypes: ['violations'],
      iframes: false,
    });
    return results.violations.map((violation) => ({
      rule: violation.id,
      impact: violation.impact ?? 'minor',
      targets: violation.nodes.map((node) => node.target.join(' ')),
      messages: violation.nodes.map((node) => [...node.any, ...node.all, ...node.none].map((check) => check.message).join('; ')),
      summary: violation.nodes[0]?.failureSummary ?? '',
    }));
  })()`);
}

/** Waits until no loading indicator is left and antd's entry animations are over. */
async function settled(page: Page): Promise<void> {
  await page.getByTestId('loading').first().waitFor({ state: 'detached' });
  await page.locator('.ant-skeleton, .ant-spin-spinning').first().waitFor({ state: 'detached', timeout: 15_000 });
  // Fades and zooms run for 0.2 to 0.3 s; a half-faded text would be measured at the wrong contrast.
  await page.waitForTimeout(400);
}

/** Opens a route and waits until its data has arrived and antd's entry animations are over. */
async function settle(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  await settled(page);
}

/** The page's requests still in flight (the console's API calls, its lazily loaded code). */
function requestsInFlight(page: Page): () => number {
  const open = new Set<unknown>();
  page.on('request', (request) => open.add(request));
  page.on('requestfinished', (request) => open.delete(request));
  page.on('requestfailed', (request) => open.delete(request));
  return () => open.size;
}

/**
 * Goes to a route as the console's links do (a history entry and a popstate, which React Router follows), then
 * waits as `settle` does. The shell, its code and axe stay loaded: a full load per route cost Chromium about
 * 1.5 s of CPU, and the route's own rendering and data are what is audited. `networkidle` does not restart on a
 * same-document navigation, so the page's requests are counted instead: none for 500 ms, as it means.
 */
async function navigateInApp(page: Page, path: string, inFlight: () => number): Promise<void> {
  await page.evaluate(`(() => {
    history.pushState({ usr: null, key: 'audit', idx: (history.state?.idx ?? 0) + 1 }, '', ${JSON.stringify(path)});
    dispatchEvent(new PopStateEvent('popstate', { state: history.state }));
  })()`);
  let quietSince = Date.now();
  for (const deadline = Date.now() + 15_000; Date.now() - quietSince < 500;) {
    if (Date.now() > deadline) throw new Error(`${path}: requests still in flight after 15 s`);
    if (inFlight() > 0) quietSince = Date.now();
    await page.waitForTimeout(50);
  }
  await settled(page);
}

/** Appends a line per route to A11Y_REPORT (JSON lines), for the counts in the README. */
function report(entry: Record<string, unknown>): void {
  if (process.env.A11Y_REPORT) appendFileSync(process.env.A11Y_REPORT, `${JSON.stringify(entry)}\n`);
}

/**
 * Each width and each language once (the diagonal): contrast and names do not depend on the pair, and the
 * four pairs took six minutes of the suite's thirty. A11Y_ALL_PAIRS=1 runs all four.
 */
const CONFIGURATIONS: ReadonlyArray<{ width: number; language: Language }> = [
  { width: 1440, language: 'zh-CN' },
  ...(process.env.A11Y_ALL_PAIRS
    ? [
        { width: 1440, language: 'en' as const },
        { width: 375, language: 'zh-CN' as const },
      ]
    : []),
  { width: 375, language: 'en' },
];

const SIGNED_OUT_ROUTES = [
  '/',
  '/login',
  '/register',
  '/reset',
  '/user/reset?email=someone%40example.test&token=abc',
  '/about',
  '/chat',
  '/no/such/page',
];

/** Records the signed-in routes show, so that their tables, tags and forms are filled. */
const records = { channel: 0, token: 0, redemption: 0, user: 0 };

beforeAll(async () => {
  const { root } = suite.stack;
  const channelName = uniqueName('ax');
  await root.post('/api/channel/', {
    name: channelName,
    type: 1,
    key: 'sk-x',
    // Loopback only (refused at once): nothing in the suite may reach the network.
    base_url: 'http://127.0.0.1:9',
    models: 'gpt-4o-mini',
    group: 'default',
  });
  records.channel = (await root.get(`/api/channel/search?keyword=${channelName}`)).body.data[0].id;
  const disabledChannel = uniqueName('ax');
  await root.post('/api/channel/', {
    name: disabledChannel,
    type: 14,
    key: 'sk-y',
    base_url: 'http://127.0.0.1:9',
    models: 'claude-3-haiku',
    group: 'default',
  });
  const disabledId = (await root.get(`/api/channel/search?keyword=${disabledChannel}`)).body.data[0].id;
  await root.put('/api/channel/', { id: disabledId, status: 2 });

  const enabled = (
    await root.post('/api/token/', { name: uniqueName('ax'), remain_quota: 0, unlimited_quota: true, expired_time: -1 })
  ).body.data;
  records.token = enabled.id;
  const disabled = (
    await root.post('/api/token/', {
      name: uniqueName('ax'),
      remain_quota: 1000,
      unlimited_quota: false,
      expired_time: -1,
    })
  ).body.data;
  await root.put('/api/token/?status_only=true', { id: disabled.id, status: 2 });

  const codeName = uniqueName('ax');
  const codes = (await root.post('/api/redemption/', { name: codeName, quota: 500000, count: 2 })).body
    .data as string[];
  // One code used (a top-up line in the log and a 'used' tag in the list), one left unused.
  await root.post('/api/user/topup', { key: codes[0] });
  records.redemption = (await root.get(`/api/redemption/search?keyword=${codeName}`)).body.data[0].id;

  const username = uniqueName('ax');
  await root.post('/api/user/', { username, display_name: 'Axe Checked', password: 'password123' });
  records.user = (await root.get(`/api/user/search?keyword=${username}`)).body.data[0].id;
});

const signedInRoutes = () => [
  '/',
  '/setting',
  '/setting?tab=operation',
  '/setting?tab=system',
  '/setting?tab=other',
  '/channel',
  '/channel/add',
  `/channel/edit/${records.channel}`,
  '/token',
  '/token/add',
  `/token/edit/${records.token}`,
  '/redemption',
  '/redemption/add',
  `/redemption/edit/${records.redemption}`,
  '/user',
  '/user/add',
  `/user/edit/${records.user}`,
  '/user/edit',
  '/topup',
  '/log',
  '/audit',
  '/status',
  '/about',
  '/chat',
];

describe.each(CONFIGURATIONS)('accessibility at $width px in $language', ({ width, language }) => {
  /** Audits each route in turn and returns the blocking violations nobody accepted, as readable lines. */
  async function auditRoutes(page: Page, routes: string[], who: string): Promise<string[]> {
    const failures: string[] = [];
    const inFlight = requestsInFlight(page);
    for (const [index, route] of routes.entries()) {
      if (index === 0) await settle(page, route);
      else await navigateInApp(page, route, inFlight);
      const violations = await audit(page);
      report({
        who,
        width,
        language,
        route,
        violations: violations.map(({ rule, impact, targets, messages }) => ({
          rule,
          impact,
          nodes: targets.length,
          found: targets.map((target, index) => `${target}: ${messages[index]}`),
        })),
      });
      for (const violation of violations) {
        if (!BLOCKING.has(violation.impact)) continue;
        const open = violation.targets.filter((target) => !accepted(violation, target));
        if (open.length === 0) continue;
        failures.push(
          `${route}: ${violation.rule} (${violation.impact}) on ${open.length}: ${open.slice(0, 4).join(' | ')}\n    ${violation.summary.replace(/\n/g, ' ')}`,
        );
      }
    }
    return failures;
  }

  it('signed out: no serious or critical violation on any open page', { timeout: 300_000 }, async () => {
    const view = await suite.open({ width, language });
    await view.context.route(/^https:\/\/app\.nextchat\.dev\//, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>chat</title>' }),
    );
    const failures = await auditRoutes(view.page, SIGNED_OUT_ROUTES, 'visitor');
    await view.close();
    expect(failures).toEqual([]);
  });

  it('signed in as root: no serious or critical violation on any console page', { timeout: 600_000 }, async () => {
    const view = await suite.open({ width, language });
    await view.context.route(/^https:\/\/app\.nextchat\.dev\//, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>chat</title>' }),
    );
    await signInThroughApi(view.page, 'root', '123456');
    const failures = await auditRoutes(view.page, signedInRoutes(), 'root');
    await view.close();
    expect(failures).toEqual([]);
  });
});

describe('the header menu', () => {
  it('is made of links: a plain click stays in the tab, Ctrl+click opens the entry in a new one', async () => {
    const view = await suite.open({ width: 1440, language: 'en' });
    const { page, context } = view;
    await signInThroughApi(page, 'root', '123456');
    await page.goto('/setting');
    const tokenEntry = page.locator('.ant-menu-horizontal').getByRole('link', { name: 'Token', exact: true });
    expect(await tokenEntry.getAttribute('href')).toBe('/token');
    const opened = context.waitForEvent('page');
    await tokenEntry.click({ modifiers: ['Control'] });
    const tab = await opened;
    await tab.waitForURL('**/token');
    expect(new URL(page.url()).pathname).toBe('/setting');
    await tab.close();
    await tokenEntry.click();
    await page.waitForURL('**/token');
    await view.close();
  });
});

// Issue 33 point 7: the settings sections are a tablist of tabs only (antd's bar held its overflow button in it);
// at 375 px every section stays reachable, and the keys and ?tab= work as before. Both languages at 375 px, where
// the tab names' lengths decide whether they fit; the desktop once (English there has the room it has at 375).
describe.each([
  { width: 1440, language: 'zh-CN' as const },
  { width: 375, language: 'en' as const },
  { width: 375, language: 'zh-CN' as const },
])('the settings sections at $width px in $language', ({ width, language }) => {
  it('are a tablist of tabs only, all on screen, moved through by the arrow keys', async () => {
    const view = await suite.open({ width, language });
    const { page } = view;
    await signInThroughApi(page, 'root', '123456');
    await settle(page, '/setting?tab=system');
    const tablist = page.getByRole('tablist');
    expect(await tablist.count()).toBe(1);
    const names = ['personal', 'operation', 'system', 'other'].map((key) => text(language, `setting.tabs.${key}`));
    expect(await tablist.getByRole('tab').allInnerTexts()).toEqual(names);
    // Nothing but tabs inside the tablist: no button, link or other control of another role.
    expect(await tablist.locator('button:not([role="tab"]), a, [tabindex]:not([role="tab"])').count()).toBe(0);
    for (const name of names) {
      const box = (await tablist.getByRole('tab', { name, exact: true }).boundingBox())!;
      expect(box.x, name).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, name).toBeLessThanOrEqual(width);
    }
    const system = tablist.getByRole('tab', { name: names[2], exact: true });
    expect(await system.getAttribute('aria-selected')).toBe('true');
    // The selected tab names its panel, and the panel is labelled by it.
    const panel = page.locator(`#${await system.getAttribute('aria-controls')}`);
    expect(await panel.getAttribute('role')).toBe('tabpanel');
    expect(await panel.getAttribute('aria-labelledby')).toBe(await system.getAttribute('id'));
    // Only the selected tab is in the Tab order; arrows move and select, wrapping round; the URL follows.
    expect(await tablist.locator('[role="tab"][tabindex="0"]').count()).toBe(1);
    await system.focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForURL(/\?tab=other$/);
    await page.keyboard.press('ArrowRight');
    await page.waitForURL((url) => url.search === '');
    await expect
      .poll(() => tablist.getByRole('tab', { name: names[0], exact: true }).getAttribute('aria-selected'))
      .toBe('true');
    await page.keyboard.press('End');
    await page.waitForURL(/\?tab=other$/);
    await page.keyboard.press('ArrowLeft');
    await page.waitForURL(/\?tab=system$/);
    await expect.poll(() => page.evaluate<string | null>('document.activeElement?.textContent ?? null')).toBe(names[2]);
    await tablist.getByRole('tab', { name: names[1], exact: true }).click();
    await page.waitForURL(/\?tab=operation$/);
    await page.getByTestId('price-setting').waitFor();
    // axe finds nothing serious on the page, the tablist included (no accepted entry for it any more).
    await settle(page, '/setting');
    const serious = (await audit(page)).filter((violation) => BLOCKING.has(violation.impact));
    expect(serious.filter((violation) => violation.targets.some((target) => !accepted(violation, target)))).toEqual([]);
    await view.close();
  });
});
