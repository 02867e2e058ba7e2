// Memory under a flood of unauthenticated calls: the built server (as `npm start` runs it, SQLite) gets
// UNAUTH_FLOOD_CALLS (50,000) calls with random keys, half to /v1/chat/completions (relay keys of 48
// characters) and half to /api/user/self (access tokens of 32 characters), every other key 12,000 characters
// long, and its peak RSS is reported. Target: under 200 MiB (decision 0015). Loopback only.
import { execSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Pool } from 'undici';
import { startProcess, waitUntil } from './processes.js';
import { peakMemoryMiB } from './process-stats.js';

const calls = Number(process.env.UNAUTH_FLOOD_CALLS ?? 50_000);
const concurrency = Number(process.env.UNAUTH_FLOOD_CONCURRENCY ?? 64);
const targetMiB = 200;
const benchRoot = resolve(import.meta.dirname, '..');
const repositoryRoot = resolve(benchRoot, '..');
const port = 18_400;

const currentMemoryMiB = (pid: number) => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : 0;
};

/**
 * A random key: `normalLength` characters, or every other time 12,000 (under Node's 16 KiB of headers): what a
 * hostile client sends to make each miss cost memory.
 */
const randomKey = (normalLength: number, index: number) => {
  const length = index % 2 === 1 ? 12_000 : normalLength;
  return randomBytes(length).toString('base64url').slice(0, length);
};

async function main() {
  // UNAUTH_FLOOD_SERVER runs another build (an older commit's server/dist/main.js) for a comparison.
  const serverMain = process.env.UNAUTH_FLOOD_SERVER ?? join(repositoryRoot, 'server/dist/main.js');
  if (!process.env.BENCH_SKIP_BUILD && !process.env.UNAUTH_FLOOD_SERVER)
    execSync('npm run build -w server', { cwd: repositoryRoot, stdio: 'inherit' });
  const dataDirectory = mkdtempSync(join(tmpdir(), 'modelgate-flood-data-'));
  const startScript: string = JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8')).scripts.start;
  const nodeFlags = startScript.split(/\s+/).filter((part) => part.startsWith('--'));
  const server = startProcess(
    process.execPath,
    [...nodeFlags, serverMain],
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      SQLITE_PATH: join(dataDirectory, 'modelgate.db'),
      LOG_LEVEL: 'warn',
      // The flood is to measure memory, not to be stopped by the per-IP limits.
      GLOBAL_API_RATE_LIMIT: '0',
      GLOBAL_WEB_RATE_LIMIT: '0',
      NODE_ENV: 'production',
    },
    repositoryRoot,
  );
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: concurrency });
  try {
    await waitUntil('ModelGate', async () => (await fetch(`http://127.0.0.1:${port}/api/status`)).ok);
    const startMiB = currentMemoryMiB(server.pid);
    const statuses = new Map<number, number>();
    let next = 0;
    let maxSampledMiB = startMiB;
    const sampler = setInterval(() => (maxSampledMiB = Math.max(maxSampledMiB, currentMemoryMiB(server.pid))), 100);
    const started = performance.now();
    const worker = async () => {
      // Bounded: each turn takes one of the `calls` indexes.
      for (let index = next++; index < calls; index = next++) {
        const relay = index % 2 === 0;
        const response = await pool.request(
          relay
            ? {
                method: 'POST',
                path: '/v1/chat/completions',
                headers: {
                  authorization: `Bearer sk-${randomKey(48, index >> 1)}`,
                  'content-type': 'application/json',
                },
                body: '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}]}',
              }
            : { method: 'GET', path: '/api/user/self', headers: { authorization: randomKey(32, index >> 1) } },
        );
        await response.body.dump();
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const peakMiB = peakMemoryMiB(server.pid);
    console.log(
      JSON.stringify(
        {
          calls,
          concurrency,
          seconds: Number(seconds.toFixed(1)),
          statuses: Object.fromEntries(statuses),
          rssAtStartMiB: Math.round(startMiB),
          rssAtEndMiB: Math.round(currentMemoryMiB(server.pid)),
          peakRssMiB: Math.round(Math.max(peakMiB, maxSampledMiB)),
          targetMiB,
          node: process.version,
          at: new Date().toISOString(),
        },
        null,
        2,
      ),
    );
    if (Math.max(peakMiB, maxSampledMiB) > targetMiB) process.exitCode = 1;
  } finally {
    await pool.close();
    await server.stop();
    rmSync(dataDirectory, { recursive: true, force: true });
  }
}

await main();
