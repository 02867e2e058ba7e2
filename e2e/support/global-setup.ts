import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { repositoryRoot, webDist } from './paths.ts';

/** Builds the console once when it is not built yet (or when E2E_BUILD=1), since the server serves web/dist. */
export default function setup(): void {
  if (existsSync(`${webDist}/index.html`) && process.env.E2E_BUILD !== '1') return;
  const build = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: repositoryRoot, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('building the console failed');
}
