// `npm test`: every suite in turn (server unit + API + relay on each database, console unit, browser),
// then one closing line with the totals.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const steps = [
  { name: 'typecheck', command: 'npm run typecheck' },
  { name: 'server', command: 'npm run test -w server' },
];
if (existsSync(join(root, 'web/package.json'))) {
  steps.push({ name: 'console unit', command: 'npm run test -w web' });
  steps.push({ name: 'console build', command: 'npm run build -w web' });
}
if (existsSync(join(root, 'e2e/package.json'))) steps.push({ name: 'browser', command: 'npm run test -w e2e' });

const failed = [];
for (const step of steps) {
  console.log(`\n=== ${step.name}: ${step.command}`);
  const result = spawnSync(step.command, { cwd: root, stdio: 'inherit', shell: true });
  if (result.status !== 0) failed.push(step.name);
}
console.log(
  `\nsuites: ${steps.length - failed.length} passed, ${failed.length} failed${failed.length ? ` (${failed.join(', ')})` : ''}`,
);
process.exit(failed.length ? 1 : 0);
