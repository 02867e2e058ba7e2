import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { namespaces } from './i18n/locales/zh-CN';
import { routeDefinitions } from './routes';

const sourceRoot = __dirname;
const NAMESPACES = Object.keys(namespaces);
/** Loaded with the shell (i18n/index.ts): every page may use them. */
const SHELL_TEXTS = ['common', 'header', 'footer'];
/** A string that starts with a namespace and a dot: a translation key, or the start of a built one. */
const KEY = new RegExp(`['"\`](${NAMESPACES.join('|')})\\.[\\w$.{-]`, 'g');

function resolveImport(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [`${base}.tsx`, `${base}.ts`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

/** The namespaces of every key in a file and the source files it imports (not lazily), followed through. */
function namespacesReached(file: string, seen = new Set<string>()): Set<string> {
  const found = new Set<string>();
  if (seen.has(file) || file.includes(`${join(sourceRoot, 'i18n')}`)) return found;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  for (const match of source.matchAll(KEY)) found.add(match[1] as string);
  for (const match of source.matchAll(/^import\s+(?!type\s)[^'"]*?from\s+'(\.[^']+)'/gm)) {
    const target = resolveImport(file, match[1] as string);
    if (target) for (const namespace of namespacesReached(target, seen)) found.add(namespace);
  }
  return found;
}

describe('route table', () => {
  it.each(routeDefinitions)('$path loads every texts file its page shows', ({ module, texts }) => {
    const page = join(sourceRoot, 'pages', `${module}.tsx`);
    expect(existsSync(page)).toBe(true);
    const missing = [...namespacesReached(page)].filter(
      (namespace) => !SHELL_TEXTS.includes(namespace) && !texts.includes(namespace as never),
    );
    expect(missing).toEqual([]);
  });
});
