import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach } from 'vitest';
import { initI18n, loadNamespaces } from './src/i18n';
import en from './src/i18n/locales/en';
import zhCN from './src/i18n/locales/zh-CN';

// Tests render pages without their routes, which load each page's texts: every text (and antd's) up front.
initI18n();
i18n.addResourceBundle('zh-CN', 'translation', zhCN, true, true);
i18n.addResourceBundle('en', 'translation', en, true, true);
await loadNamespaces([]);

// With two test files at once on a 2-core machine, an antd form can take over a second to answer a click; the
// default 1 s of findBy and waitFor failed on that alone.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
});

// jsdom lacks matchMedia, which antd's responsive helpers and our theme hook read.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}

// jsdom lacks ResizeObserver, which antd's menus and tables use to measure.
if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  }
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
  Object.defineProperty(globalThis, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
}

// jsdom does not implement pseudo-element styles; antd's scrollbar measurement asks for them.
const computedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element) => computedStyle(element);
