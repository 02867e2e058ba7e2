import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const source = dirname(fileURLToPath(import.meta.url));

/** Every TypeScript file under a folder, tests included. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(folder, name));
}

/**
 * The modules a file names: static imports and re-exports (also over several lines, type-only ones too),
 * dynamic imports and side-effect imports. Comments are left out first, so a comment naming a path is not one.
 */
function importedSpecifiers(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const found: string[] = [];
  for (const match of code.matchAll(/\b(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) found.push(match[1]!);
  return found;
}

/** The files under `from` that import a module under `to`, as `file → module` lines. */
function importsInto(from: string, to: string): string[] {
  const offending: string[] = [];
  for (const file of filesUnder(from))
    for (const specifier of importedSpecifiers(readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) continue;
      const target = resolve(dirname(file), specifier);
      if (!relative(to, target).startsWith('..'))
        offending.push(`${relative(source, file)} → ${relative(source, target)}`);
    }
  return offending;
}

describe('the layers import one way', () => {
  test('the import reader sees every form of import', () => {
    const text = [
      "import { a } from '../relay/a.js';",
      'import {\n  b,\n  type C,\n} from "../relay/b.js";',
      "import type { D } from '../relay/d.js';",
      "export { e } from '../relay/e.js';",
      "import '../relay/f.js';",
      "const g = await import('../relay/g.js');",
      "// import { h } from '../relay/h.js';",
      "/** see '../relay/i.js' */",
    ].join('\n');
    expect(importedSpecifiers(text)).toEqual([
      '../relay/a.js',
      '../relay/b.js',
      '../relay/d.js',
      '../relay/e.js',
      '../relay/f.js',
      '../relay/g.js',
    ]);
  });

  test('nothing under domain/ imports from relay/: prices are made in domain/pricing, money moves in relay/billing', () => {
    expect(importsInto(join(source, 'domain'), join(source, 'relay'))).toEqual([]);
  });
});
