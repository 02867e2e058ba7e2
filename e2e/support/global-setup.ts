import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { repositoryRoot, webDist } from './paths.ts';

/**
 * Builds the console once when it is not built yet (or when E2E_BUILD=1), since the server serves web/dist.
 * As production: Vitest sets NODE_ENV=test, and a build that inherits it is React's and antd's development
 * build (a third larger, with warnings in the browser's console that the tests count as errors).
 */
export default function setup(): void {
  if (existsSync(`${webDist}/index.html`) && process.env.E2E_BUILD !== '1') return;
  const build = spawnSync('npm', ['run', 'build', '-w', 'web'], {
    cwd: repositoryRoot,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (build.status !== 0) throw new Error('building the console failed');
}
