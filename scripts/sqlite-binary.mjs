// better-sqlite3's native binary (decision 0033). The package's own install script downloads a prebuilt binary
// from GitHub and compiles SQLite from source when it cannot: a minute of `npm ci` on a 2-core machine without
// GitHub. Its script is therefore off (`allowScripts` in package.json) and this one, the root's postinstall, runs
// instead: it takes the binary built for this platform and Node ABI from vendor/better-sqlite3/ when there is one
// and its checksum matches, and otherwise runs what the package's script runs.
//
//   node scripts/sqlite-binary.mjs            install (npm ci runs it)
//   node scripts/sqlite-binary.mjs --vendor   compile from the locked version's source and keep the binary for
//                                             this platform in vendor/better-sqlite3/ (after an upgrade)
import { execFileSync, execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const packageDir = join(root, 'node_modules/better-sqlite3');
const built = join(packageDir, 'build/Release/better_sqlite3.node');
const vendorDir = join(root, 'vendor/better-sqlite3');
const checksums = join(vendorDir, 'SHA256SUMS');

const libc =
  process.platform === 'linux' ? (process.report.getReport().header.glibcVersionRuntime ? '-glibc' : '-musl') : '';
const version = () => JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).version;
const vendoredPath = () =>
  `${version()}/node-v${process.versions.modules}-${process.platform}-${process.arch}${libc}/better_sqlite3.node`;
const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** Whether the installed binary opens a database, tried in a child process (a bad binary can abort it). */
function loads() {
  if (!existsSync(built)) return false;
  try {
    execFileSync(
      process.execPath,
      ['-e', `new (require(${JSON.stringify(packageDir)}))(':memory:').exec('select 1')`],
      {
        stdio: 'ignore',
      },
    );
    return true;
  } catch {
    return false;
  }
}

/** What better-sqlite3's own install script runs: a downloaded prebuilt binary, else a compile. */
const compile = () => execSync('prebuild-install || node-gyp rebuild --release', { cwd: packageDir, stdio: 'inherit' });

function install() {
  // `npm ci --omit=dev` in a workspace that does not need it, or a second run: nothing to do.
  if (!existsSync(packageDir) || loads()) return;
  const wanted = vendoredPath();
  const listed = existsSync(checksums)
    ? readFileSync(checksums, 'utf8')
        .split('\n')
        .map((line) => line.split(/\s+/))
        .find(([, path]) => path === wanted)?.[0]
    : undefined;
  const vendored = join(vendorDir, wanted);
  if (listed && existsSync(vendored) && sha256(vendored) === listed) {
    mkdirSync(join(packageDir, 'build/Release'), { recursive: true });
    copyFileSync(vendored, built);
    if (loads()) {
      console.log(`better-sqlite3 ${version()}: the binary kept for this platform (vendor/better-sqlite3/${wanted})`);
      return;
    }
    rmSync(built);
  }
  console.log(`better-sqlite3 ${version()}: no kept binary loads here (${wanted}); building it as its package does`);
  compile();
}

function vendor() {
  rmSync(join(packageDir, 'build'), { recursive: true, force: true });
  execSync('node-gyp rebuild --release', { cwd: packageDir, stdio: 'inherit' });
  const wanted = vendoredPath();
  const target = join(vendorDir, wanted);
  mkdirSync(join(target, '..'), { recursive: true });
  copyFileSync(built, target);
  execFileSync('strip', ['--strip-unneeded', target]);
  const lines = existsSync(checksums) ? readFileSync(checksums, 'utf8').split('\n').filter(Boolean) : [];
  const kept = lines.filter((line) => !line.endsWith(`  ${wanted}`));
  writeFileSync(checksums, `${[...kept, `${sha256(target)}  ${wanted}`].sort().join('\n')}\n`);
  console.log(`kept ${target}`);
}

if (process.argv.includes('--vendor')) vendor();
else install();
