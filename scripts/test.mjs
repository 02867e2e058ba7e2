// `npm test`: every suite in turn (server unit + API + relay on each database, console unit, browser),
// then the failed tests again (a CI log is often read from its tail) and one closing line with the totals.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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

const steps = [
  { name: 'typecheck', command: 'npm run typecheck' },
  { name: 'server', ...vitest('server') },
];
if (existsSync(join(root, 'web/package.json'))) {
  steps.push({ name: 'console unit', ...vitest('web') });
  steps.push({ name: 'console build', command: 'npm run build -w web' });
}
if (existsSync(join(root, 'e2e/package.json'))) steps.push({ name: 'browser', ...vitest('e2e') });

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
  if (result.status === 0) continue;
  failed.push(step.name);
  if (step.report) failures.push(`--- ${step.name}`, ...failuresIn(step.report));
}
rmSync(reports, { recursive: true, force: true });

if (failures.length) console.log(`\nfailed tests:\n${failures.join('\n')}`);
console.log(
  `\nsuites: ${steps.length - failed.length} passed, ${failed.length} failed${failed.length ? ` (${failed.join(', ')})` : ''}`,
);
process.exit(failed.length ? 1 : 0);
