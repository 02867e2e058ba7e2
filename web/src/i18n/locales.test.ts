import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MENU_ENTRIES, CHAT_ENTRY } from '../lib/menu';
import { CATALOGUE } from '../pages/about/catalogue.data';
import { CAPABILITIES, PROVIDERS } from '../pages/about/catalogue-types';
import en, { namespaces as enNamespaces } from './locales/en';
import zhCN, { namespaces as zhNamespaces } from './locales/zh-CN';

const sourceRoot = join(__dirname, '..');

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return name === 'locales' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('translations', () => {
  it('has the same keys in Chinese and English', () => {
    expect(Object.keys(en).sort()).toEqual(Object.keys(zhCN).sort());
  });

  it('prefixes every key with its namespace file name', () => {
    for (const [namespace, texts] of [...Object.entries(zhNamespaces), ...Object.entries(enNamespaces)]) {
      for (const key of Object.keys(texts)) expect(key.startsWith(`${namespace}.`), key).toBe(true);
    }
  });

  it('has no empty text', () => {
    for (const [key, text] of [...Object.entries(zhCN), ...Object.entries(en)]) expect(text.trim(), key).not.toBe('');
  });

  it('defines every literal key used in the source', () => {
    const used = new Set<string>();
    for (const file of sourceFiles(sourceRoot)) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\bt\(\s*'([a-zA-Z][\w.-]*)'/g)) used.add(match[1] as string);
      for (const match of text.matchAll(/titleKey(?:=|: )["']([\w.-]+)["']/g)) used.add(match[1] as string);
      for (const match of text.matchAll(/'([a-z]+\.(?:list|add|edit)\.(?:title|selfTitle))'/g))
        used.add(match[1] as string);
    }
    expect(used.size).toBeGreaterThan(100);
    const missing = [...used].filter((key) => !(key in zhCN));
    expect(missing).toEqual([]);
  });

  it('defines the dynamic keys of the menu and the catalogue', () => {
    const dynamic = [
      ...[...MENU_ENTRIES, CHAT_ENTRY].map((entry) => entry.labelKey),
      ...CAPABILITIES.map((capability) => `about.capability.${capability}`),
      ...PROVIDERS.map((provider) => `about.provider.${provider}`),
      ...CATALOGUE.flatMap((entry) => (entry.intro ? [`about.intro.${entry.intro}`] : [])),
      'about.price.per1K',
      'about.price.per1M',
      'header.language.zh-CN',
      'header.language.en',
      'header.language.short.zh-CN',
      'header.language.short.en',
    ];
    expect(dynamic.filter((key) => !(key in zhCN))).toEqual([]);
  });
});
