import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/**
 * Issue 32, point 7: `npm ci` within 60 s. better-sqlite3's own install script compiles SQLite for a minute where
 * GitHub's binaries cannot be downloaded; it is off, and the root's postinstall puts the binary kept in vendor/
 * for this platform in place (decision 0033). Run here on a copy of the package without its binary.
 */
describe("install truth: better-sqlite3's binary without compiling SQLite", () => {
  const rootPath = new URL(root).pathname;
  const sums = readFileSync(join(rootPath, 'vendor/better-sqlite3/SHA256SUMS'), 'utf8').trim().split('\n');
  const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

  test("the package's own script is off and the root's postinstall installs the binary", () => {
    const root = manifest as unknown as { allowScripts: Record<string, boolean>; scripts: Record<string, string> };
    expect(root.allowScripts['better-sqlite3']).toBe(false);
    expect(root.scripts.postinstall).toBe('node scripts/sqlite-binary.mjs');
  });

  test('every kept binary matches its checksum, and one is kept for the locked version on this machine', () => {
    const locked = lock.packages['node_modules/better-sqlite3']!.version;
    for (const line of sums) {
      const [sum, path] = line.split(/\s+/);
      expect(sha256(join(rootPath, 'vendor/better-sqlite3', path!)), path).toBe(sum);
    }
    const here = `${locked}/node-v${process.versions.modules}-${process.platform}-${process.arch}-glibc/`;
    expect(sums.some((line) => line.includes(here))).toBe(true);
  });

  /** A root with the script, vendor/ and a copy of better-sqlite3 (its binary removed) beside the real modules. */
  function scratchRoot(): { directory: string; installed: string; run: () => string } {
    const directory = mkdtempSync(join(tmpdir(), 'modelgate-sqlite-binary-'));
    cpSync(join(rootPath, 'scripts/sqlite-binary.mjs'), join(directory, 'scripts/sqlite-binary.mjs'));
    cpSync(join(rootPath, 'vendor'), join(directory, 'vendor'), { recursive: true });
    const modules = join(directory, 'node_modules');
    mkdirSync(modules);
    const packageDir = join(modules, 'better-sqlite3');
    const packageSource = join(rootPath, 'node_modules/better-sqlite3');
    // Its JavaScript and manifest only: no binary, no C sources.
    cpSync(packageSource, packageDir, {
      recursive: true,
      filter: (source) => !/^\/(build|src|deps)\b/.test(source.slice(packageSource.length)),
    });
    for (const dependency of ['bindings', 'file-uri-to-path'])
      symlinkSync(join(rootPath, 'node_modules', dependency), join(modules, dependency));
    const installed = join(packageDir, 'build/Release/better_sqlite3.node');
    // PATH without npm's node-gyp: were the script to fall back to compiling, it would fail at once.
    const run = () =>
      execFileSync(process.execPath, [join(directory, 'scripts/sqlite-binary.mjs')], {
        encoding: 'utf8',
        env: { PATH: '/usr/bin:/bin' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    return { directory, installed, run };
  }

  test('the kept binary is put in place and opens a database; a second run leaves it', () => {
    const { directory, installed, run } = scratchRoot();
    try {
      expect(existsSync(installed)).toBe(false);
      expect(run()).toContain('the binary kept for this platform');
      const opened = execFileSync(
        process.execPath,
        [
          '-e',
          `console.log(new (require(${JSON.stringify(join(directory, 'node_modules/better-sqlite3'))}))(':memory:').prepare('select sqlite_version() as v').get().v)`,
        ],
        { encoding: 'utf8' },
      );
      expect(opened.trim()).toMatch(/^3\.\d+\.\d+$/);
      expect(run()).toBe('');
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  test('a kept binary whose checksum does not match is never installed: the package is built instead', () => {
    const { directory, installed, run } = scratchRoot();
    try {
      const [, path] = sums[0]!.split(/\s+/);
      writeFileSync(join(directory, 'vendor/better-sqlite3', path!), 'not the binary');
      expect(run).toThrow(/building it as its package does|prebuild-install|node-gyp/);
      expect(existsSync(installed)).toBe(false);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

/** A package's engines.node range (an old lockfile form lists engines as an array of strings). */
function nodeRange(entry: LockedPackage): string | undefined {
  if (Array.isArray(entry.engines)) return entry.engines.find((item) => item.startsWith('node '))?.slice(5);
  return entry.engines?.node;
}
