// `npm test`: every suite in turn (server unit + API + relay on each database, console unit, browser),
// then the failed tests again (a CI log is often read from its tail) and one closing line with the totals.
// First it makes sure the browser suite has its browser: Debian's chromium, installed here when missing.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const reports = mkdtempSync(join(tmpdir(), 'modelgate-test-'));
// Vitest suites also write a JSON report, read back below to name what failed.
const vitest = (workspace) => {
  const report = join(reports, `${workspace}.json`);
  return {
    command: `npm run test -w ${workspace} -- --reporter=default --reporter=json --outputFile=${report}`,
    report,
  };
};

/** Tells the test helpers that start the server (server/test/node-process.ts, e2e/support/stack.ts) to use dist. */
const serverBuilt = () => (process.env.MODELGATE_TEST_SERVER_DIST = '1');

const steps = [
  // The servers the tests start as processes resolve @modelgate/wire to its build (wire/dist).
  { name: 'wire build', command: 'npm run build -w wire' },
  { name: 'typecheck', command: 'npm run typecheck' },
  // The nodes the tests start as processes (server and browser suites) run this build, not src through tsx: a
  // start takes about half as long. The typecheck above checked it, so it is emitted without a second check.
  { name: 'server build', command: 'npm run build -w server -- --noCheck', then: serverBuilt },
  { name: 'server', ...vitest('server') },
];
if (existsSync(join(root, 'web/package.json'))) {
  steps.push({ name: 'console unit', ...vitest('web') });
  steps.push({ name: 'console build', command: 'npm run build -w web' });
}
if (existsSync(join(root, 'e2e/package.json'))) steps.push({ name: 'browser', ...vitest('e2e') });

/**
 * The browser suite drives the Chromium at CHROMIUM_PATH (e2e/support/browser.ts), by default Debian's
 * /usr/bin/chromium: browser downloads are not possible on every machine, the Debian package always is.
 * As root with apt-get it is installed here (the package lists are refreshed only when the first attempt
 * fails); otherwise the run stops at once with the one command to run, instead of failing after the other suites.
 */
function ensureChromium() {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (existsSync(path)) return;
  const stop = (line) => {
    rmSync(reports, { recursive: true, force: true });
    console.error(line);
    process.exit(1);
  };
  if (process.env.CHROMIUM_PATH) stop(`CHROMIUM_PATH=${path} does not exist: point it at a Chromium or unset it`);
  const canInstall = process.getuid?.() === 0 && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (!canInstall)
    stop(`the browser suite needs ${path}: run \`sudo apt-get install -y chromium\`, or set CHROMIUM_PATH`);
  const apt = (...args) =>
    spawnSync('apt-get', args, {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    }).status === 0;
  console.log(`\n=== browser: ${path} is missing, installing Debian's chromium (apt-get install -y chromium)`);
  const installed =
    apt('install', '-y', '-qq', 'chromium') || (apt('update', '-qq') && apt('install', '-y', '-qq', 'chromium'));
  if (!installed || !existsSync(path))
    stop(
      `installing chromium failed (see apt-get's lines above): run \`apt-get update && apt-get install -y chromium\``,
    );
}
if (steps.some((step) => step.name === 'browser')) ensureChromium();

/**
 * The coding-agent CLIs the server's CLI e2e tests drive are their own package (server/test/clis, not a
 * workspace), so that `npm ci` for running the server leaves them out (issue 32, point 7). They are installed
 * here, before the server suite, when their node_modules is missing or was installed from another lockfile.
 */
function ensureTestClis() {
  const folder = join(root, 'server/test/clis');
  const lock = createHash('sha256')
    .update(readFileSync(join(folder, 'package-lock.json')))
    .digest('hex');
  const stamp = join(folder, 'node_modules/.installed-lock-sha256');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === lock) return;
  console.log('\n=== test CLIs: npm ci --prefix server/test/clis (Claude Code, Gemini CLI, Codex CLI)');
  // Claude Code declares Node 22 while it runs on 20: the warning concerns the tests' client, not the server.
  const result = spawnSync('npm', ['ci', '--prefix', folder, '--no-audit', '--no-fund', '--loglevel=error'], {
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    rmSync(reports, { recursive: true, force: true });
    console.error("installing the test CLIs failed (see npm's lines above): run `npm ci --prefix server/test/clis`");
    process.exit(1);
  }
  writeFileSync(stamp, lock);
}
ensureTestClis();

/** The first lines of an error message, indented under the name of what failed. */
const excerpt = (message = '') =>
  message
    .split('\n')
    .slice(0, 4)
    .map((line) => `    ${line}`);

/** "file > describe > test" and the first lines of the error, for each failure in a Vitest JSON report. */
function failuresIn(report) {
  if (!existsSync(report)) return ['(no report written: the suite stopped before its end)'];
  const { testResults = [] } = JSON.parse(readFileSync(report, 'utf8'));
  const lines = [];
  for (const file of testResults) {
    const name = relative(root, file.name);
    const failedTests = file.assertionResults.filter((test) => test.status === 'failed');
    for (const test of failedTests) lines.push(`${name} > ${test.fullName}`, ...excerpt(test.failureMessages[0]));
    // A file that fails outside its tests (a hook, an import) has no failed test of its own.
    if (file.status === 'failed' && failedTests.length === 0) lines.push(name, ...excerpt(file.message));
  }
  return lines;
}

const failed = [];
const failures = [];
for (const step of steps) {
  console.log(`\n=== ${step.name}: ${step.command}`);
  const result = spawnSync(step.command, { cwd: root, stdio: 'inherit', shell: true });
  if (result.status === 0) {
    step.then?.();
    continue;
  }
  failed.push(step.name);
  if (step.report) failures.push(`--- ${step.name}`, ...failuresIn(step.report));
}
rmSync(reports, { recursive: true, force: true });

if (failures.length) console.log(`\nfailed tests:\n${failures.join('\n')}`);
console.log(
  `\nsuites: ${steps.length - failed.length} passed, ${failed.length} failed${failed.length ? ` (${failed.join(', ')})` : ''}`,
);
process.exit(failed.length ? 1 : 0);
