// The soak (issue 28): one ModelGate on SQLite under a steady closed-loop load for BENCH_SOAK_SECONDS (600 by
// default), reporting what grows with time: the WAL's peak size (held under the checkpoint thread's bound,
// server/src/db/sqlite-checkpointer.ts), the database's bytes per call, resident memory from start to end, the
// calls per second and the errors. Loopback only.
//   cd bench && npm run bench:soak      (BENCH_SOAK_SECONDS, BENCH_SOAK_CONNECTIONS, BENCH_SERVER_FLAGS)
import { execSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { benchModels, benchRoot, repositoryRoot, requireWrk, startMock, startModelGate } from './modelgate.js';
import { peakMemoryMiB } from './process-stats.js';
import type { Started } from './processes.js';
import { runWrk } from './wrk.js';

const seconds = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
const connections = Number(process.env.BENCH_SOAK_CONNECTIONS ?? 32);
const port = 18_500;
const mebibyte = 1024 * 1024;

const fileBytes = (file: string) => {
  try {
    return statSync(file).size;
  } catch {
    return 0; // a WAL that is not there (yet, or any more)
  }
};
const residentMiB = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

async function main() {
  requireWrk();
  if (!process.env.BENCH_SKIP_BUILD) execSync('npm run build -w server', { cwd: repositoryRoot, stdio: 'inherit' });
  const started: Started[] = [];
  try {
    const mockPort = await startMock(started);
    const modelgate = await startModelGate(repositoryRoot, port, mockPort, started);
    const target = {
      name: 'soak',
      url: `http://127.0.0.1:${port}/v1/chat/completions`,
      headers: { authorization: `Bearer ${modelgate.relayKey}` },
      body: JSON.stringify({ model: benchModels.chat, messages: [{ role: 'user', content: 'Say hello.' }] }),
    };
    const warmUp = await runWrk(target, 8, 5); // JIT, pools, caches: the memory a running server starts from
    const wal = `${modelgate.databaseFile}-wal`;
    // Measured after the warm-up: the bytes per call are the soak's calls' alone.
    const databaseBefore = fileBytes(modelgate.databaseFile) + fileBytes(wal);
    const rssStart = residentMiB(modelgate.pid);

    // The WAL's size and the server's memory, 10 times a second while the load runs (a peak lasts until the
    // next truncating checkpoint, at most a few hundred milliseconds at this rate).
    let walPeak = 0;
    // What the WAL grew by between samples: the bytes written to it, a little short of them when a
    // truncation falls between two samples.
    let walWritten = 0;
    let walPrevious = fileBytes(wal);
    let rssPeak = rssStart;
    const began = Date.now();
    const sampler = setInterval(() => {
      const walNow = fileBytes(wal);
      walWritten += walNow >= walPrevious ? walNow - walPrevious : walNow;
      walPrevious = walNow;
      walPeak = Math.max(walPeak, walNow);
      rssPeak = Math.max(rssPeak, residentMiB(modelgate.pid));
    }, 100);
    const progress = setInterval(() => {
      const elapsed = Math.round((Date.now() - began) / 1000);
      console.log(
        `  ${elapsed} s: WAL ${(fileBytes(wal) / mebibyte).toFixed(1)} MiB (peak ${(walPeak / mebibyte).toFixed(1)}), ` +
          `database ${(fileBytes(modelgate.databaseFile) / mebibyte).toFixed(1)} MiB, RSS ${residentMiB(modelgate.pid).toFixed(0)} MiB`,
      );
    }, 10_000);
    const load = await runWrk(target, connections, seconds);
    clearInterval(sampler);
    clearInterval(progress);
    const rssEnd = residentMiB(modelgate.pid);
    const rssHighWater = peakMemoryMiB(modelgate.pid);

    // Stopped gracefully, the server writes its pending charges and checkpoints the WAL into the database.
    await modelgate.server.stop();
    const databaseAfter = fileBytes(modelgate.databaseFile) + fileBytes(wal);
    const calls = warmUp.requests + load.requests;
    const database = new Database(modelgate.databaseFile, { readonly: true });
    const logs = (database.prepare('select count(*) as n from logs where type = 2').get() as { n: number }).n;
    database.close();
    rmSync(dirname(modelgate.databaseFile), { recursive: true, force: true }); // gigabytes after a long soak

    const summary = [
      `| soak figure (one SQLite node, ${connections} connections, ${seconds} s) | value |`,
      '|---|---|',
      `| calls/s | ${load.requestsPerSecond.toFixed(0)} |`,
      `| calls answered (warm-up included) / consume logs written | ${calls.toLocaleString('en')} / ${logs.toLocaleString('en')} |`,
      `| errors | ${load.errors + warmUp.errors} |`,
      `| WAL peak (bound: 64 MiB, then truncated) | ${(walPeak / mebibyte).toFixed(1)} MiB |`,
      `| WAL bytes written per call (at least) | ${(walWritten / load.requests).toFixed(0)} |`,
      `| database bytes per call | ${((databaseAfter - databaseBefore) / load.requests).toFixed(0)} (${(databaseBefore / mebibyte).toFixed(1)} → ${(databaseAfter / mebibyte).toFixed(1)} MiB) |`,
      `| RSS start → end (drift), peak | ${rssStart.toFixed(0)} → ${rssEnd.toFixed(0)} MiB (${rssEnd - rssStart >= 0 ? '+' : ''}${(rssEnd - rssStart).toFixed(0)}), ${Math.max(rssPeak, rssHighWater).toFixed(0)} MiB |`,
      `| p50 / p99 (ms) | ${load.p50Ms.toFixed(2)} / ${load.p99Ms.toFixed(2)} |`,
      '',
      `${new Date().toISOString()}, node ${process.version}.`,
    ].join('\n');
    console.log(`\n${summary}\n`);
    mkdirSync(join(benchRoot, 'results'), { recursive: true });
    writeFileSync(join(benchRoot, 'results', 'soak.md'), `${summary}\n`);
  } finally {
    for (const child of started.reverse()) await child.stop();
  }
}

await main();
