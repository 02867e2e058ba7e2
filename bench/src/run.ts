// The relay overhead benchmark: ModelGate and Portkey's open-source gateway side by side, in one sitting,
// against one local mock upstream, alternating runs (A B A B) as bench-notes.md asks. Loopback only.
import { execFileSync, execSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { firstLine, startProcess, waitUntil, type Started } from './processes.js';
import { cpuSeconds, peakMemoryMiB } from './process-stats.js';
import { runStreams } from './streams.js';
import { runWrk, type LoadTarget } from './wrk.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
// A checkout of an earlier commit, built (`npm run build -w server` there): its ModelGate runs beside this one
// as the target "baseline", in the same rounds, to show a change's cost against what came before.
const baselineRoot = process.env.BENCH_BASELINE ? resolve(process.env.BENCH_BASELINE) : undefined;
// The targets to run (default all): e.g. BENCH_TARGETS=direct,modelgate,baseline.
const chosenTargets = process.env.BENCH_TARGETS?.split(',');
const serverFlags = (process.env.BENCH_SERVER_FLAGS ?? '').split(/\s+/).filter(Boolean);
const benchRoot = resolve(import.meta.dirname, '..');
const repositoryRoot = resolve(benchRoot, '..');
const modelgatePort = 18_100;
const baselinePort = 18_150;
const portkeyPort = 18_200;
const passthroughPort = 18_300;
const accessToken = 'benchrootaccesstoken0123456789ab';
const requestBody = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello.' }] });
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function api(port: number, path: string, method: string, body?: unknown) {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { authorization: accessToken, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const result = (await response.json()) as { success: boolean; message: string; data: any };
  if (!result.success) throw new Error(`${method} ${path}: ${result.message}`);
  return result.data;
}

/** wrk drives the load; without it every run would fail with a bare ENOENT halfway through setting up. */
function requireWrk(): void {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
  } catch (error) {
    // wrk prints its version and exits with 1; only a missing program fails to start.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error('wrk is not installed: the benchmark needs it for load (Debian: apt-get install -y wrk)');
  }
}

async function main() {
  requireWrk();
  if (!process.env.BENCH_SKIP_BUILD) execSync('npm run build -w server', { cwd: repositoryRoot, stdio: 'inherit' });
  const started: Started[] = [];
  try {
    const mock = startProcess(process.execPath, ['--import', 'tsx', 'src/mock-upstream.ts', '0'], {}, benchRoot);
    started.push(mock);
    const mockPort = Number(await firstLine(mock.process));

    // Started with the Node flags `npm start` ships with (memory tuning), on the built server.
    const startScript: string = JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8')).scripts.start;
    const nodeFlags = startScript.split(/\s+/).filter((part) => part.startsWith('--'));
    // Extra flags for the ModelGate servers only (this build's and the baseline's), to look inside a run:
    // BENCH_SERVER_FLAGS='--cpu-prof --cpu-prof-dir=/tmp/prof' (then `npm run profile-diff`).
    nodeFlags.push(...serverFlags);
    const startModelGate = async (root: string, port: number) => {
      const dataDirectory = mkdtempSync(join(tmpdir(), 'modelgate-bench-data-'));
      const server = startProcess(
        process.execPath,
        [...nodeFlags, join(root, 'server/dist/main.js')],
        {
          PORT: String(port),
          HOST: '127.0.0.1',
          SQLITE_PATH: join(dataDirectory, 'modelgate.db'),
          INITIAL_ROOT_ACCESS_TOKEN: accessToken,
          LOG_LEVEL: 'warn',
          GLOBAL_API_RATE_LIMIT: '0',
          NODE_ENV: 'production',
        },
        root,
      );
      started.push(server);
      await waitUntil('ModelGate', async () => (await fetch(`http://127.0.0.1:${port}/api/status`)).ok);
      await api(port, '/api/channel/', 'POST', {
        name: 'bench mock',
        type: 8,
        key: 'sk-upstream-bench',
        base_url: `http://127.0.0.1:${mockPort}`,
        models: 'gpt-4o-mini,gpt-4o-mini-2024-07-18',
        group: 'default',
      });
      // A limited token, so billing takes its full path (pre-consume, settle, token and user counters, log).
      const token = await api(port, '/api/token/', 'POST', {
        name: 'bench',
        remain_quota: 1_000_000_000_000,
        unlimited_quota: false,
        expired_time: -1,
      });
      const relayKey = `sk-${token?.key ?? (await api(port, '/api/token/?p=0', 'GET'))[0].key}`;
      return { pid: server.pid, relayKey };
    };
    const modelgate = await startModelGate(repositoryRoot, modelgatePort);
    const baseline = baselineRoot ? await startModelGate(baselineRoot, baselinePort) : undefined;

    const passthrough = startProcess(
      process.execPath,
      ['--import', 'tsx', 'src/passthrough.ts', String(passthroughPort), `http://127.0.0.1:${mockPort}`],
      {},
      benchRoot,
    );
    started.push(passthrough);
    await firstLine(passthrough.process);

    const portkey = startProcess(
      process.execPath,
      [
        join(benchRoot, 'node_modules/@portkey-ai/gateway/build/start-server.js'),
        '--headless',
        `--port=${portkeyPort}`,
      ],
      { NODE_ENV: 'production' },
      benchRoot,
    );
    started.push(portkey);
    await waitUntil('Portkey', async () => {
      await fetch(`http://127.0.0.1:${portkeyPort}/`);
      return true;
    });

    const allTargets: (LoadTarget & { pid?: number })[] = [
      {
        name: 'direct',
        url: `http://127.0.0.1:${mockPort}/v1/chat/completions`,
        headers: { authorization: 'Bearer x' },
        body: requestBody,
      },
      {
        name: 'passthrough',
        url: `http://127.0.0.1:${passthroughPort}/v1/chat/completions`,
        headers: { authorization: 'Bearer x' },
        body: requestBody,
        pid: passthrough.pid,
      },
      {
        name: 'modelgate',
        url: `http://127.0.0.1:${modelgatePort}/v1/chat/completions`,
        headers: { authorization: `Bearer ${modelgate.relayKey}` },
        body: requestBody,
        pid: modelgate.pid,
      },
      ...(baseline
        ? [
            {
              name: 'baseline',
              url: `http://127.0.0.1:${baselinePort}/v1/chat/completions`,
              headers: { authorization: `Bearer ${baseline.relayKey}` },
              body: requestBody,
              pid: baseline.pid,
            },
          ]
        : []),
      {
        name: 'portkey',
        url: `http://127.0.0.1:${portkeyPort}/v1/chat/completions`,
        headers: {
          authorization: 'Bearer sk-upstream-bench',
          'x-portkey-provider': 'openai',
          'x-portkey-custom-host': `http://127.0.0.1:${mockPort}/v1`,
        },
        body: requestBody,
        pid: portkey.pid,
      },
    ];
    const targets = allTargets.filter((target) => !chosenTargets || chosenTargets.includes(target.name));

    // Every call each target served, warm-up included: what a profile of its whole life is divided by.
    const served: Record<string, number> = {};
    const count = (target: string, calls: number) => (served[target] = (served[target] ?? 0) + calls);
    for (const target of targets) count(target.name, runWrk(target, 8, 2).requests); // warm-up: JIT, pools, caches

    const results: Record<string, Record<string, number[]>> = {};
    const record = (target: string, metric: string, value: number) => {
      ((results[target] ??= {})[metric] ??= []).push(value);
    };

    for (const connections of [1, 32, 128]) {
      for (let round = 0; round < rounds; round++) {
        for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
          const cpuBefore = target.pid ? cpuSeconds(target.pid) : 0;
          const load = runWrk(target, connections, seconds);
          count(target.name, load.requests);
          record(target.name, `rps@${connections}`, load.requestsPerSecond);
          record(target.name, `p50@${connections}`, load.p50Ms);
          record(target.name, `p99@${connections}`, load.p99Ms);
          record(target.name, `errors@${connections}`, load.errors);
          if (target.pid && load.requests > 0)
            record(target.name, `cpuUs@${connections}`, ((cpuSeconds(target.pid) - cpuBefore) / load.requests) * 1e6);
          console.log(
            `${target.name} c=${connections} round ${round + 1}: ${load.requestsPerSecond.toFixed(0)} req/s, p50 ${load.p50Ms} ms, p99 ${load.p99Ms} ms, errors ${load.errors}`,
          );
        }
      }
    }

    for (let round = 0; round < rounds; round++) {
      for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
        const cpuBefore = target.pid ? cpuSeconds(target.pid) : 0;
        const streams = await runStreams(target, 32, seconds);
        count(target.name, streams.streams + streams.errors);
        record(target.name, 'streams/s', streams.streamsPerSecond);
        record(target.name, 'ttfbP50', streams.ttfbP50Ms);
        record(target.name, 'streamErrors', streams.errors);
        if (target.pid && streams.streams > 0)
          record(target.name, 'cpuUsPerStream', ((cpuSeconds(target.pid) - cpuBefore) / streams.streams) * 1e6);
        console.log(
          `${target.name} streams round ${round + 1}: ${streams.streamsPerSecond.toFixed(0)}/s, ttfb p50 ${streams.ttfbP50Ms.toFixed(2)} ms, errors ${streams.errors}`,
        );
      }
    }

    // One stream at a time: the first-byte time the gateway itself adds, without queueing behind other streams.
    for (let round = 0; round < rounds; round++) {
      for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
        const streams = await runStreams(target, 1, seconds);
        count(target.name, streams.streams + streams.errors);
        record(target.name, 'ttfbP50@1', streams.ttfbP50Ms);
        record(target.name, 'streamErrors', streams.errors);
        console.log(`${target.name} one stream round ${round + 1}: ttfb p50 ${streams.ttfbP50Ms.toFixed(3)} ms`);
      }
    }

    // 32 streams at a model's pace: the cores are mostly idle, so the first token's delay is the gateway's own.
    for (let round = 0; round < rounds; round++) {
      for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
        const streams = await runStreams(target, 32, seconds, true);
        count(target.name, streams.streams + streams.errors);
        record(target.name, 'ttfbPaced', streams.ttfbP50Ms);
        record(target.name, 'streamErrors', streams.errors);
        console.log(`${target.name} paced streams round ${round + 1}: ttfb p50 ${streams.ttfbP50Ms.toFixed(3)} ms`);
      }
    }

    const m = (target: string, metric: string) => median(results[target]?.[metric] ?? []);
    const rows: [string, (target: string) => string][] = [
      ['calls/s at concurrency 32', (t) => m(t, 'rps@32').toFixed(0)],
      ['calls/s at concurrency 128', (t) => m(t, 'rps@128').toFixed(0)],
      ['p50 / p99 at concurrency 32 (ms)', (t) => `${m(t, 'p50@32').toFixed(2)} / ${m(t, 'p99@32').toFixed(2)}`],
      ['p50 / p99 at concurrency 128 (ms)', (t) => `${m(t, 'p50@128').toFixed(2)} / ${m(t, 'p99@128').toFixed(2)}`],
      ['gateway CPU per call at concurrency 32 (µs)', (t) => (t === 'direct' ? '—' : m(t, 'cpuUs@32').toFixed(0))],
      ['p50 with one client (ms)', (t) => m(t, 'p50@1').toFixed(3)],
      [
        'added p50 with one client (ms)',
        (t) => (t === 'direct' ? '—' : `+${(m(t, 'p50@1') - m('direct', 'p50@1')).toFixed(3)}`),
      ],
      ['streams/s, 20 chunks at once, 32 streams', (t) => m(t, 'streams/s').toFixed(0)],
      ['time to first streamed byte p50, 32 streams (ms)', (t) => m(t, 'ttfbP50').toFixed(2)],
      [
        'added time to first byte, 32 streams (ms)',
        (t) => (t === 'direct' ? '—' : `+${(m(t, 'ttfbP50') - m('direct', 'ttfbP50')).toFixed(2)}`),
      ],
      ['gateway CPU per stream (µs)', (t) => (t === 'direct' ? '—' : m(t, 'cpuUsPerStream').toFixed(0))],
      ['time to first streamed byte p50, one stream (ms)', (t) => m(t, 'ttfbP50@1').toFixed(3)],
      [
        'added time to first byte, one stream (ms)',
        (t) => (t === 'direct' ? '—' : `+${(m(t, 'ttfbP50@1') - m('direct', 'ttfbP50@1')).toFixed(3)}`),
      ],
      ["first token p50, 32 streams at a model's pace (ms)", (t) => m(t, 'ttfbPaced').toFixed(3)],
      [
        'added time to first token, 32 paced streams (ms)',
        (t) => (t === 'direct' ? '—' : `+${(m(t, 'ttfbPaced') - m('direct', 'ttfbPaced')).toFixed(3)}`),
      ],
      [
        'errors (all runs)',
        (t) =>
          String(
            Object.entries(results[t] ?? {})
              .filter(([k]) => k.startsWith('errors') || k === 'streamErrors')
              .reduce((sum, [, v]) => sum + v.reduce((a, b) => a + b, 0), 0),
          ),
      ],
      [
        'peak RSS (MiB)',
        (t) => {
          const target = targets.find((candidate) => candidate.name === t);
          return target?.pid ? peakMemoryMiB(target.pid).toFixed(0) : '—';
        },
      ],
    ];
    const names = targets.map((target) => target.name);
    const table = [
      `| figure | ${names.join(' | ')} |`,
      `|---|${names.map(() => '---').join('|')}|`,
      ...rows.map(([label, value]) => `| ${label} | ${names.map(value).join(' | ')} |`),
    ].join('\n');
    const ratio = m('modelgate', 'rps@32') / m('portkey', 'rps@32');
    const summary = `${table}\n\n${names.includes('portkey') ? `ModelGate / Portkey throughput at concurrency 32: ${ratio.toFixed(1)}x. ` : ''}Medians of ${rounds} runs of ${seconds} s, ${new Date().toISOString()}, node ${process.version}.\n`;
    console.log(`\n${summary}`);
    const profiled = targets.filter((target) => target.pid && ['modelgate', 'baseline'].includes(target.name));
    if (serverFlags.length > 0)
      for (const target of profiled)
        console.log(
          `${target.name}: pid ${target.pid}, ${served[target.name]} calls served (for npm run profile-diff)`,
        );
    mkdirSync(join(benchRoot, 'results'), { recursive: true });
    writeFileSync(join(benchRoot, 'results', 'latest.md'), summary);
    writeFileSync(join(benchRoot, 'results', 'latest.json'), JSON.stringify(results, null, 2));
  } finally {
    for (const process of started.reverse()) await process.stop();
  }
}

await main();
