import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, test } from 'vitest';

/**
 * Issue 32, point 7: the README states one Node version (the root package.json's `engines.node`) and `npm ci`
 * meets it without an EBADENGINE warning, and someone who runs the server does not download the coding-agent
 * CLIs the CLI e2e tests drive (they are server/test/clis, a package of their own, installed by `npm test`).
 */
const root = new URL('../../', import.meta.url);
const readJson = (path: string) => JSON.parse(readFileSync(new URL(path, root), 'utf8'));

interface LockedPackage {
  version?: string;
  dev?: boolean;
  engines?: { node?: string } | string[];
}

const manifest = readJson('package.json') as { engines: { node: string }; workspaces: string[] };
const lock = readJson('package-lock.json') as { packages: Record<string, LockedPackage> };
const stated = manifest.engines.node;
const clis = ['@anthropic-ai/claude-code', '@google/gemini-cli', '@openai/codex'];

describe('install truth: one Node version, met by every package a server install brings', () => {
  test('the stated version is a range whose lowest release is a Node 20 line, 20.19 or later', () => {
    const lowest = semver.minVersion(stated);
    expect(lowest?.major).toBe(20);
    expect(semver.gte(lowest!, '20.19.0')).toBe(true);
  });

  test("no package outside the dev-only tree excludes the stated version's lowest release", () => {
    const lowest = semver.minVersion(stated)!.version;
    const runtime = Object.entries(lock.packages).filter(([path, entry]) => path !== '' && !entry.dev);
    // The lockfile is read, not trusted to be complete: a server install has hundreds of packages.
    expect(runtime.length).toBeGreaterThan(100);
    const refusing = runtime
      .map(([path, entry]) => ({ path, version: entry.version, node: nodeRange(entry) }))
      .filter(({ node }) => node !== undefined && !semver.satisfies(lowest, node, { includePrerelease: true }));
    expect(refusing).toEqual([]);
  });

  test('no workspace package.json and no root lockfile entry brings the coding-agent CLIs', () => {
    const workspaces = ['.', ...manifest.workspaces];
    expect(workspaces).not.toContain('server/test/clis');
    for (const workspace of workspaces) {
      const pkg = readJson(`${workspace}/package.json`) as Record<string, Record<string, string> | undefined>;
      const fields = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'];
      const named = fields.flatMap((field) => Object.keys(pkg[field] ?? {}));
      expect(
        named.filter((name) => clis.includes(name)),
        `${workspace}/package.json`,
      ).toEqual([]);
    }
    const locked = Object.keys(lock.packages).filter((path) =>
      clis.some((cli) => path.endsWith(`node_modules/${cli}`)),
    );
    expect(locked).toEqual([]);
    // They are where the CLI e2e tests look for them.
    const testClis = readJson('server/test/clis/package.json') as { dependencies: Record<string, string> };
    expect(Object.keys(testClis.dependencies).sort()).toEqual([...clis].sort());
  });
});

/** A package's engines.node range (an old lockfile form lists engines as an array of strings). */
function nodeRange(entry: LockedPackage): string | undefined {
  if (Array.isArray(entry.engines)) return entry.engines.find((item) => item.startsWith('node '))?.slice(5);
  return entry.engines?.node;
}
