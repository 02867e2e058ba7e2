import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { MockOpenAIUpstream } from '../../server/test/mock-openai-upstream.ts';
import { launchBrowser, openPage, type ConsolePage, type OpenOptions } from './browser.ts';
import { startStack, type Stack } from './stack.ts';

/** What a test file runs against: one real server stack and one Chromium, and a mock vendor when asked for. */
export interface Suite {
  readonly stack: Stack;
  readonly browser: Browser;
  /** The mock OpenAI-compatible vendor (useSuite({ upstream: true })). */
  readonly upstream: MockOpenAIUpstream;
  /** A new console page on the stack's server. */
  open(options?: OpenOptions): Promise<ConsolePage>;
}

/**
 * Starts the file's stack and browser (and mock vendor) before its tests and stops them after; read them inside
 * tests and hooks, once they have started.
 */
export function useSuite(options: { upstream?: boolean } = {}): Suite {
  let stack: Stack | undefined;
  let browser: Browser | undefined;
  let upstream: MockOpenAIUpstream | undefined;

  beforeAll(async () => {
    if (options.upstream) upstream = await MockOpenAIUpstream.start();
    stack = await startStack();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await upstream?.close();
  });

  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} has not started (read it inside a test or a later hook)`);
    return value;
  };
  return {
    get stack() {
      return started(stack, 'the stack');
    },
    get browser() {
      return started(browser, 'the browser');
    },
    get upstream() {
      if (!options.upstream) throw new Error('no mock vendor: useSuite({ upstream: true })');
      return started(upstream, 'the mock vendor');
    },
    open: (openOptions) => openPage(started(browser, 'the browser'), started(stack, 'the stack').baseUrl, openOptions),
  };
}
