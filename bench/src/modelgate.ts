// Starting what the benchmarks measure: the mock upstream and a built ModelGate with its channels and a token.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { firstLine, startProcess, waitUntil, type Started } from './processes.js';

export const benchRoot = resolve(import.meta.dirname, '..');
export const repositoryRoot = resolve(benchRoot, '..');
const accessToken = 'benchrootaccesstoken0123456789ab';
// Extra Node flags for the ModelGate servers only, to look inside a run:
// BENCH_SERVER_FLAGS='--cpu-prof --cpu-prof-dir=/tmp/prof' (then `npm run profile-diff`).
export const serverFlags = (process.env.BENCH_SERVER_FLAGS ?? '').split(/\s+/).filter(Boolean);

/** The models each bench channel serves; every one has a default price, so calls are billed as usual. */
export const benchModels = {
  chat: 'gpt-4o-mini',
  // The mock streams this one at a model's pace (mock-upstream.ts).
  pacedChat: 'gpt-4o-mini-2024-07-18',
  claude: 'claude-3-5-haiku-20241022',
  // Served only by the OpenAI channel, whose Responses calls go to the upstream's /v1/responses as they are.
  responses: 'gpt-4o',
};

/** wrk drives the load; without it every run would fail with a bare ENOENT halfway through setting up. */
export function requireWrk(): void {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
  } catch (error) {
    // wrk prints its version and exits with 1; only a missing program fails to start.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error('wrk is not installed: the benchmark needs it for load (Debian: apt-get install -y wrk)');
  }
}

/** The mock upstream (mock-upstream.ts) on a free port; answers its port. */
export async function startMock(started: Started[]): Promise<number> {
  const mock = startProcess(process.execPath, ['--import', 'tsx', 'src/mock-upstream.ts', '0'], {}, benchRoot);
  started.push(mock);
  return Number(await firstLine(mock.process));
}

/** A server left running by an earlier bench would answer in place of the one this bench starts: refuse. */
function requireFreePort(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', () => reject(new Error(`port ${port} is taken: is an earlier bench's server still running?`)));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}

/** One management API call, as root unless another user's headers are given; answers `data`. */
export async function api(
  port: number,
  path: string,
  method: string,
  body?: unknown,
  as: Record<string, string> = { authorization: accessToken },
) {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { ...as, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const result = (await response.json()) as { success: boolean; message: string; data: any };
  if (!result.success) throw new Error(`${method} ${path}: ${result.message}`);
  return result.data;
}

export interface ModelGateServer {
  pid: number;
  port: number;
  relayKey: string;
  databaseFile: string;
  server: Started;
}

/**
 * A built ModelGate (`root`/server/dist) on a fresh SQLite database, with the Node flags `npm start` ships with
 * (memory tuning) and BENCH_SERVER_FLAGS, three channels to the mock (OpenAI-compatible for chat, Anthropic for
 * Claude, OpenAI for Responses) and a limited token, so billing takes its full path (pre-consume, settle,
 * token and user counters, log).
 */
export async function startModelGate(
  root: string,
  port: number,
  mockPort: number,
  started: Started[],
  env: Record<string, string> = {},
): Promise<ModelGateServer> {
  await requireFreePort(port);
  const startScript: string = JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8')).scripts.start;
  const nodeFlags = startScript.split(/\s+/).filter((part) => part.startsWith('--'));
  const databaseFile = join(mkdtempSync(join(tmpdir(), 'modelgate-bench-data-')), 'modelgate.db');
  const server = startProcess(
    process.execPath,
    [...nodeFlags, ...serverFlags, join(root, 'server/dist/main.js')],
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      SQLITE_PATH: databaseFile,
      INITIAL_ROOT_ACCESS_TOKEN: accessToken,
      LOG_LEVEL: 'warn',
      GLOBAL_API_RATE_LIMIT: '0',
      CRITICAL_RATE_LIMIT: '0', // the installation target signs in as each of its users
      NODE_ENV: 'production',
      ...env,
    },
    root,
  );
  started.push(server);
  await waitUntil('ModelGate', async () => (await fetch(`http://127.0.0.1:${port}/api/status`)).ok);
  const baseUrl = `http://127.0.0.1:${mockPort}`;
  const channels = [
    { name: 'bench mock', type: 8, models: `${benchModels.chat},${benchModels.pacedChat}` },
    { name: 'bench claude', type: 14, models: benchModels.claude },
    { name: 'bench responses', type: 1, models: benchModels.responses },
  ];
  for (const channel of channels)
    await api(port, '/api/channel/', 'POST', {
      ...channel,
      key: 'sk-upstream-bench',
      base_url: baseUrl,
      group: 'default',
    });
  const token = await api(port, '/api/token/', 'POST', {
    name: 'bench',
    remain_quota: 1_000_000_000_000,
    unlimited_quota: false,
    expired_time: -1,
  });
  const relayKey = `sk-${token?.key ?? (await api(port, '/api/token/?p=0', 'GET'))[0].key}`;
  return { pid: server.pid, port, relayKey, databaseFile, server };
}

/**
 * Issue 31's cost: a second token on the same server with every limit a token takes, each far above what the
 * bench reaches, so every call runs the whole admission and settlement of its limits and none is refused.
 */
export async function limitedKey(port: number): Promise<string> {
  const huge = 1_000_000_000_000;
  const token = await api(port, '/api/token/', 'POST', {
    name: 'bench limits',
    remain_quota: 1_000_000_000_000,
    unlimited_quota: false,
    expired_time: -1,
    rpm_limit: huge,
    tpm_limit: huge,
    concurrency_limit: 100_000,
    budget_quota: huge,
    budget_period: 'month',
  });
  const key =
    token?.key ?? (await api(port, '/api/token/?p=0', 'GET')).find((row: any) => row.name === 'bench limits').key;
  return `sk-${key}`;
}
