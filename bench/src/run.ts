// The relay overhead benchmark: ModelGate and Portkey's open-source gateway side by side, in one sitting,
// against one local mock upstream, alternating runs (A B A B) as bench-notes.md asks. Loopback only.
import { execFileSync, execSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { populate, type Installation } from './installation.js';
import {
  benchModels,
  benchRoot,
  limitedKey,
  repositoryRoot,
  requireWrk,
  serverFlags,
  startMock,
  startModelGate,
  type ModelGateServer,
} from './modelgate.js';
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
// The "installation" target's size (issue 28): 2,000 channels of 50 models (100,000 abilities), 20,000 tokens.
const installationChannels = Number(process.env.BENCH_INSTALLATION_CHANNELS ?? 2000);
const installationTokens = Number(process.env.BENCH_INSTALLATION_TOKENS ?? 20_000);
// The phases to run (default all), to profile one load alone: c1, c32, c128, long, streams, one-stream, paced.
const chosenPhases = process.env.BENCH_PHASES?.split(',');
const phase = (name: string) => !chosenPhases || chosenPhases.includes(name);
const modelgatePort = 18_100;
const baselinePort = 18_150;
const installationPort = 18_160;
const limitsPort = 18_170;
const portkeyPort = 18_200;
const passthroughPort = 18_300;
const requestBody = JSON.stringify({ model: benchModels.chat, messages: [{ role: 'user', content: 'Say hello.' }] });
const claudeBody = JSON.stringify({
  model: benchModels.claude,
  max_tokens: 256,
  stream: true,
  messages: [{ role: 'user', content: 'Say hello.' }],
});
const responsesBody = JSON.stringify({ model: benchModels.responses, input: 'Say hello.', stream: true });
/**
 * An agent's call: a conversation of 200 turns (about 210 KB, English with some Chinese), as coding agents send on
 * every step. The floor only moves its bytes; what a gateway does with a body (decoding, parsing, counting) grows
 * with it.
 */
const longConversation = JSON.stringify({
  model: benchModels.chat,
  messages: Array.from({ length: 200 }, (_, turn) => ({
    role: turn % 2 ? 'assistant' : 'user',
    content: `turn ${turn}: ${'lorem ipsum dolor sit amet, 你好 '.repeat(30)}`,
  })),
});
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/**
 * A target of the sitting. Chat targets run every phase; stream-only ones (the native fronts, and the bare
 * pass-through carrying the same protocol as their floor) run the 32-stream phase, for their CPU per stream.
 */
type Target = LoadTarget & { pid?: number; streamOnly?: boolean };

async function main() {
  requireWrk();
  if (!process.env.BENCH_SKIP_BUILD) execSync('npm run build -w server', { cwd: repositoryRoot, stdio: 'inherit' });
  const chosen = (name: string) => !chosenTargets || chosenTargets.includes(name);
  const started: Started[] = [];
  try {
    const mockPort = await startMock(started);

    const modelgateTargets = ['modelgate', 'anthropic', 'responses'];
    const modelgate = modelgateTargets.some(chosen)
      ? await startModelGate(repositoryRoot, modelgatePort, mockPort, started)
      : undefined;
    const baseline =
      baselineRoot && ['baseline', 'baseline-anthropic', 'baseline-responses'].some(chosen)
        ? await startModelGate(baselineRoot, baselinePort, mockPort, started)
        : undefined;
    // The same build on a large installation, populated before any load so its setup does not run beside it.
    let installation: (ModelGateServer & Installation) | undefined;
    if (chosen('installation')) {
      const server = await startModelGate(repositoryRoot, installationPort, mockPort, started);
      const made = await populate(installationPort, mockPort, installationChannels, installationTokens);
      installation = { ...server, ...made };
    }

    // Issue 31: this build with Redis, called with a plain token ('redis') and with a token carrying every
    // limit ('limits'); their difference is what the limits cost a call. Redis database 15, emptied first.
    let limitsServer: (ModelGateServer & { limitedKey: string }) | undefined;
    if (chosen('limits') || chosen('redis')) {
      execFileSync('redis-cli', ['-h', '127.0.0.1', '-n', '15', 'flushdb'], { stdio: 'ignore' });
      const server = await startModelGate(repositoryRoot, limitsPort, mockPort, started, {
        REDIS_CONN_STRING: 'redis://127.0.0.1:6379/15',
      });
      limitsServer = { ...server, limitedKey: await limitedKey(limitsPort) };
    }

    let passthroughPid: number | undefined;
    if (['passthrough', 'anthropic-passthrough', 'responses-passthrough'].some(chosen)) {
      const passthrough = startProcess(
        process.execPath,
        // The floor takes the servers' profiling flags too, so a profile of each can be set side by side.
        [
          ...serverFlags,
          '--import',
          'tsx',
          'src/passthrough.ts',
          String(passthroughPort),
          `http://127.0.0.1:${mockPort}`,
        ],
        {},
        benchRoot,
      );
      started.push(passthrough);
      await firstLine(passthrough.process);
      passthroughPid = passthrough.pid;
    }

    let portkeyPid: number | undefined;
    if (chosen('portkey')) {
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
      portkeyPid = portkey.pid;
    }

    const chat = (name: string, port: number, authorization: string, pid?: number): Target => ({
      name,
      url: `http://127.0.0.1:${port}/v1/chat/completions`,
      headers: { authorization },
      body: requestBody,
      pid,
    });
    const claudeHeaders = (key: string) => ({ 'x-api-key': key, 'anthropic-version': '2023-06-01' });
    /** A server's native stream targets, Anthropic's Messages and OpenAI's Responses streamed (stream phase only). */
    const nativeTargets = (
      name: (protocol: 'anthropic' | 'responses') => string,
      port: number,
      server: { relayKey: string; pid?: number } | undefined,
    ): Target[] =>
      server
        ? [
            {
              name: name('anthropic'),
              url: `http://127.0.0.1:${port}/v1/messages`,
              headers: claudeHeaders(server.relayKey),
              body: claudeBody,
              pid: server.pid,
              streamOnly: true,
            },
            {
              name: name('responses'),
              url: `http://127.0.0.1:${port}/v1/responses`,
              headers: { authorization: `Bearer ${server.relayKey}` },
              body: responsesBody,
              pid: server.pid,
              streamOnly: true,
            },
          ]
        : [];
    const allTargets: (Target | false | undefined)[] = [
      chat('direct', mockPort, 'Bearer x'),
      chat('passthrough', passthroughPort, 'Bearer x', passthroughPid),
      modelgate && chat('modelgate', modelgatePort, `Bearer ${modelgate.relayKey}`, modelgate.pid),
      baseline && chat('baseline', baselinePort, `Bearer ${baseline.relayKey}`, baseline.pid),
      installation && chat('installation', installationPort, `Bearer ${installation.relayKey}`, installation.pid),
      limitsServer && chat('redis', limitsPort, `Bearer ${limitsServer.relayKey}`, limitsServer.pid),
      limitsServer && chat('limits', limitsPort, `Bearer ${limitsServer.limitedKey}`, limitsServer.pid),
      {
        ...chat('portkey', portkeyPort, 'Bearer sk-upstream-bench', portkeyPid),
        headers: {
          authorization: 'Bearer sk-upstream-bench',
          'x-portkey-provider': 'openai',
          'x-portkey-custom-host': `http://127.0.0.1:${mockPort}/v1`,
        },
      },
      ...nativeTargets((protocol) => protocol, modelgatePort, modelgate),
      ...nativeTargets((protocol) => `baseline-${protocol}`, baselinePort, baseline),
      ...nativeTargets(
        (protocol) => `${protocol}-passthrough`,
        passthroughPort,
        passthroughPid ? { relayKey: 'x', pid: passthroughPid } : undefined,
      ),
    ];
    const targets = allTargets.filter((target): target is Target => !!target && chosen(target.name));
    const chatTargets = targets.filter((target) => !target.streamOnly);
    const streamTargets = targets.filter((target) => target.streamOnly);

    // Every call each target served, warm-up included: what a profile of its whole life is divided by.
    const served: Record<string, number> = {};
    const count = (target: string, calls: number) => (served[target] = (served[target] ?? 0) + calls);
    // Warm-up: JIT, connection pools, caches. Chat targets stream too: without it the stream road's compiling
    // (about 7 % of the server's CPU in a whole-process profile of the first streams) fell in the streams
    // phase's first round.
    for (const target of chatTargets) count(target.name, (await runWrk(target, 8, 2)).requests);
    for (const target of targets) {
      const streams = await runStreams(target, 8, 2);
      count(target.name, streams.streams + streams.errors);
    }

    const results: Record<string, Record<string, number[]>> = {};
    const record = (target: string, metric: string, value: number) => {
      ((results[target] ??= {})[metric] ??= []).push(value);
    };

    // The call loads, figures keyed `<figure>@<key>`: the short request at 1, 32 and 128 connections, and calls
    // carrying a long conversation 8 at a time (each moves 210 KB each way through the gateway).
    const callLoads = [
      ...[1, 32, 128].map((connections) => ({ phase: `c${connections}`, key: String(connections), connections })),
      { phase: 'long', key: 'long', connections: 8, body: longConversation },
    ].filter((load) => phase(load.phase));
    for (const { key, connections, body } of callLoads) {
      for (let round = 0; round < rounds; round++) {
        for (const target of round % 2 === 0 ? chatTargets : [...chatTargets].reverse()) {
          const cpuBefore = target.pid ? cpuSeconds(target.pid) : 0;
          const sent = body ? { ...target, name: `${target.name}-${key}`, body } : target;
          const load = await runWrk(sent, connections, seconds);
          count(target.name, load.requests);
          record(target.name, `rps@${key}`, load.requestsPerSecond);
          record(target.name, `p50@${key}`, load.p50Ms);
          record(target.name, `p99@${key}`, load.p99Ms);
          record(target.name, `errors@${key}`, load.errors);
          if (target.pid && load.requests > 0)
            record(target.name, `cpuUs@${key}`, ((cpuSeconds(target.pid) - cpuBefore) / load.requests) * 1e6);
          console.log(
            `${target.name} ${body ? `${key} (${connections} at a time)` : `c=${connections}`} round ${round + 1}: ${load.requestsPerSecond.toFixed(0)} req/s, p50 ${load.p50Ms} ms, p99 ${load.p99Ms} ms, errors ${load.errors} (non-2xx ${load.non2xx})`,
          );
        }
      }
    }

    if (phase('streams'))
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
    if (phase('one-stream'))
      for (let round = 0; round < rounds; round++) {
        for (const target of round % 2 === 0 ? chatTargets : [...chatTargets].reverse()) {
          const streams = await runStreams(target, 1, seconds);
          count(target.name, streams.streams + streams.errors);
          record(target.name, 'ttfbP50@1', streams.ttfbP50Ms);
          record(target.name, 'streamErrors', streams.errors);
          console.log(`${target.name} one stream round ${round + 1}: ttfb p50 ${streams.ttfbP50Ms.toFixed(3)} ms`);
        }
      }

    // 32 streams at a model's pace: the cores are mostly idle, so the first token's delay is the gateway's own.
    if (phase('paced'))
      for (let round = 0; round < rounds; round++) {
        for (const target of round % 2 === 0 ? chatTargets : [...chatTargets].reverse()) {
          const streams = await runStreams(target, 32, seconds, true);
          count(target.name, streams.streams + streams.errors);
          record(target.name, 'ttfbPaced', streams.ttfbP50Ms);
          record(target.name, 'streamErrors', streams.errors);
          console.log(`${target.name} paced streams round ${round + 1}: ttfb p50 ${streams.ttfbP50Ms.toFixed(3)} ms`);
        }
      }

    const m = (target: string, metric: string) => median(results[target]?.[metric] ?? []);
    // The median, and the rounds' range when there were several: on a noisy machine two builds' CPU figures can
    // differ by 20 % with the same code (an A/A sitting, docs/benchmarks.md), and the range shows it.
    const withRange = (target: string, metric: string) => {
      const values = results[target]?.[metric] ?? [];
      const middle = m(target, metric).toFixed(0);
      if (values.length < 2) return middle;
      return `${middle} (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`;
    };
    // What a target adds to the load generator's own figure ('direct'); nothing to say without that target.
    const added = (metric: string, digits: number) => (t: string) =>
      t === 'direct' || !results.direct ? '—' : `+${(m(t, metric) - m('direct', metric)).toFixed(digits)}`;
    const rows: [string, (target: string) => string][] = [
      ['calls/s at concurrency 32', (t) => m(t, 'rps@32').toFixed(0)],
      ['calls/s at concurrency 128', (t) => m(t, 'rps@128').toFixed(0)],
      ['p50 / p99 at concurrency 32 (ms)', (t) => `${m(t, 'p50@32').toFixed(2)} / ${m(t, 'p99@32').toFixed(2)}`],
      ['p50 / p99 at concurrency 128 (ms)', (t) => `${m(t, 'p50@128').toFixed(2)} / ${m(t, 'p99@128').toFixed(2)}`],
      ['gateway CPU per call at concurrency 32 (µs)', (t) => (t === 'direct' ? '—' : withRange(t, 'cpuUs@32'))],
      ['calls/s, 210 KB conversation, concurrency 8', (t) => m(t, 'rps@long').toFixed(0)],
      ['gateway CPU per call, 210 KB conversation (µs)', (t) => (t === 'direct' ? '—' : withRange(t, 'cpuUs@long'))],
      ['p50 with one client (ms)', (t) => m(t, 'p50@1').toFixed(3)],
      ['added p50 with one client (ms)', added('p50@1', 3)],
      ['streams/s, 20 chunks at once, 32 streams', (t) => m(t, 'streams/s').toFixed(0)],
      ['time to first streamed byte p50, 32 streams (ms)', (t) => m(t, 'ttfbP50').toFixed(2)],
      ['added time to first byte, 32 streams (ms)', added('ttfbP50', 2)],
      ['gateway CPU per stream (µs)', (t) => (t === 'direct' ? '—' : withRange(t, 'cpuUsPerStream'))],
      ['time to first streamed byte p50, one stream (ms)', (t) => m(t, 'ttfbP50@1').toFixed(3)],
      ['added time to first byte, one stream (ms)', added('ttfbP50@1', 3)],
      ["first token p50, 32 streams at a model's pace (ms)", (t) => m(t, 'ttfbPaced').toFixed(3)],
      ['added time to first token, 32 paced streams (ms)', added('ttfbPaced', 3)],
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
    const names = chatTargets.map((target) => target.name);
    const table = [
      `| figure | ${names.join(' | ')} |`,
      `|---|${names.map(() => '---').join('|')}|`,
      ...rows.map(([label, value]) => `| ${label} | ${names.map(value).join(' | ')} |`),
    ].join('\n');
    const ratio = m('modelgate', 'rps@32') / m('portkey', 'rps@32');
    const notes = [
      names.includes('portkey') ? `ModelGate / Portkey throughput at concurrency 32: ${ratio.toFixed(1)}x.` : '',
      installation
        ? `Installation: ${installation.channels.toLocaleString('en')} channels of 50 models ` +
          `(${installation.abilities.toLocaleString('en')} abilities), ${installation.tokens.toLocaleString('en')} ` +
          `tokens: ${m('installation', 'cpuUs@32').toFixed(0)} µs of CPU per call at concurrency 32 ` +
          (names.includes('modelgate')
            ? `(${(m('installation', 'cpuUs@32') / m('modelgate', 'cpuUs@32')).toFixed(2)}× the one-channel ModelGate's); `
            : '; ') +
          `a channel created in ${installation.channelCreateMs.toFixed(1)} ms (median of the last 100).`
        : '',
      names.includes('limits') && names.includes('redis')
        ? `Limits (issue 31, Redis on): ${(m('limits', 'cpuUs@32') - m('redis', 'cpuUs@32')).toFixed(0)} µs of CPU ` +
          `per call at concurrency 32 over the same server's token without limits.`
        : '',
      `Medians of ${rounds} runs of ${seconds} s, ${new Date().toISOString()}, node ${process.version}.`,
    ];
    const summary = [table, nativeStreamTable(m, streamTargets.length > 0), notes.filter(Boolean).join(' ')]
      .filter(Boolean)
      .join('\n\n');
    console.log(`\n${summary}\n`);
    // A server's profile covers its whole life: every target it served counts.
    if (serverFlags.length > 0)
      for (const [name, server] of Object.entries({
        modelgate,
        baseline,
        installation,
        passthrough: passthroughPid ? { pid: passthroughPid } : undefined,
      }))
        if (server) {
          const calls = targets
            .filter((target) => target.pid === server.pid)
            .reduce((sum, target) => sum + (served[target.name] ?? 0), 0);
          console.log(`${name}: pid ${server.pid}, ${calls} calls served (for npm run profile-diff)`);
        }
    mkdirSync(join(benchRoot, 'results'), { recursive: true });
    writeFileSync(join(benchRoot, 'results', 'latest.md'), `${summary}\n`);
    writeFileSync(join(benchRoot, 'results', 'latest.json'), JSON.stringify(results, null, 2));
  } finally {
    for (const process of started.reverse()) await process.stop();
  }
}

/**
 * CPU per stream of each protocol passed natively, against the bare pass-through carrying the same stream (the
 * floor issue 28 holds them to, at most 1.5× of it): chat, Anthropic's Messages and OpenAI's Responses.
 */
function nativeStreamTable(m: (target: string, metric: string) => number, wanted: boolean): string {
  if (!wanted) return '';
  /** Each protocol's label, its floor, this build and the baseline. */
  const rows: [string, string, string, string][] = [
    ['chat completions (`/v1/chat/completions`)', 'passthrough', 'modelgate', 'baseline'],
    [
      'Anthropic Messages (`/v1/messages`, Anthropic channel)',
      'anthropic-passthrough',
      'anthropic',
      'baseline-anthropic',
    ],
    ['OpenAI Responses (`/v1/responses`, OpenAI channel)', 'responses-passthrough', 'responses', 'baseline-responses'],
  ];
  const figure = (value: number, digits = 0) => (Number.isNaN(value) ? '—' : value.toFixed(digits));
  // The baseline's columns only when BENCH_BASELINE ran a native target.
  const withBaseline = rows.some(([, , , baseline]) => !Number.isNaN(m(baseline, 'cpuUsPerStream')));
  const baselineHeads = withBaseline ? ' baseline CPU per stream (µs) | baseline ratio |' : '';
  return [
    `| stream, 32 at once, 20 text deltas | pass-through CPU per stream (µs) | ModelGate CPU per stream (µs) | ratio | ModelGate streams/s |${baselineHeads}`,
    `|---|---|---|---|---|${withBaseline ? '---|---|' : ''}`,
    ...rows.map(([label, floor, gateway, baseline]) => {
      const [floorUs, gatewayUs, baselineUs] = [floor, gateway, baseline].map((name) => m(name, 'cpuUsPerStream')) as [
        number,
        number,
        number,
      ];
      const baselineCells = withBaseline ? ` ${figure(baselineUs)} | ${figure(baselineUs / floorUs, 2)}× |` : '';
      return `| ${label} | ${figure(floorUs)} | ${figure(gatewayUs)} | ${figure(gatewayUs / floorUs, 2)}× | ${figure(m(gateway, 'streams/s'))} |${baselineCells}`;
    }),
  ].join('\n');
}

await main();
