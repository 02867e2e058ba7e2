// Two CPU profiles of the server turned into one table: main-thread self time per call, by area, side by side.
//   npm run profile-diff -- <before> <calls before> <after> <calls after>     (or one profile and its calls)
// A profile is a `.cpuprofile` that `node --cpu-prof` wrote (BENCH_SERVER_FLAGS='--cpu-prof --cpu-prof-dir=DIR'
// on `npm run bench`), or a directory holding one server process's profiles. Node writes one file per thread,
// named CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile, thread 0 the main one: a file stands for its whole
// process (the worker threads' files beside it with the same pid are read too). The calls are those the server
// served during its life (`npm run bench` prints them per target), so builds that served different numbers of
// calls compare per call.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
}
interface Profile {
  nodes: { id: number; callFrame: CallFrame }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/**
 * Which area a function's self time belongs to: the first row whose function-name or url pattern matches.
 * Function names come first, so `settle` counts as settlement wherever its file moves.
 */
const areas: { area: string; functionName?: RegExp; url?: RegExp }[] = [
  { area: 'garbage collection', functionName: /^\(garbage collector\)$/ },
  {
    area: 'pricing',
    functionName: /^(listTokenLines|priceCall|indices|priceNote)$/,
    url: /\/domain\/pricing\/|\/relay\/billing\/price/,
  },
  {
    area: 'settlement / SQL',
    functionName: /^(settle\w*|sqliteTransaction)$/,
    url: /\/relay\/billing\/|\/db\/|better-sqlite3|kysely|\/node_modules\/(pg|mysql2|ioredis)\//,
  },
  {
    area: 'usage / adaptor work',
    functionName: /^(readUsage|withUsageParts)$/,
    url: /\/relay\/adaptors\//,
  },
  {
    area: 'socket writes',
    functionName: /^(writev|writeBuffer|writeUtf8String|writeLatin1String|writevGeneric|writeGeneric|_writeGeneric)$/,
    url: /^node:internal\/stream_base_commons$/,
  },
  {
    area: 'pipeline, undici, Node internals',
    functionName: /^\((program)\)$|^runMicrotasks$/,
    url: /\/relay\/pipeline\/|\/http\/relay\/|\/undici\/|^node:/,
  },
];
const otherArea = 'other';
const areaNames = [...areas.map((row) => row.area), otherArea];

function areaOf(frame: CallFrame): string | undefined {
  if (frame.functionName === '(idle)') return undefined; // waiting, not CPU
  for (const row of areas) if (row.functionName?.test(frame.functionName)) return row.area;
  for (const row of areas) if (row.url?.test(frame.url)) return row.area;
  return otherArea;
}

/** Self time in µs per function (name and file) of one profile, idle left out. */
function selfTimes(profile: Profile): Map<string, { frame: CallFrame; us: number }> {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const times = new Map<string, { frame: CallFrame; us: number }>();
  // Sample i lasts until the next one (DevTools' reading); the last one until the profile's end.
  let at = profile.startTime;
  const stamps = profile.timeDeltas.map((delta) => (at += delta));
  profile.samples.forEach((id, index) => {
    const frame = frames.get(id)!;
    if (frame.functionName === '(idle)') return;
    const us = (stamps[index + 1] ?? profile.endTime) - stamps[index]!;
    const key = `${frame.functionName}\t${frame.url}`;
    const entry = times.get(key) ?? times.set(key, { frame, us: 0 }).get(key)!;
    entry.us += us;
  });
  return times;
}

const profileName = /^CPU\.\d+\.\d+\.(\d+)\.(\d+)\.\d+\.cpuprofile$/;

/** The main thread's profile and its workers' for a file or a one-process directory. */
function processProfiles(path: string): { main: string; workers: string[] } {
  const directory = statSync(path).isDirectory() ? path : dirname(path);
  const files = readdirSync(directory).filter((file) => profileName.test(file));
  let pid: string;
  if (directory === path) {
    const pids = [...new Set(files.map((file) => profileName.exec(file)![1]!))];
    if (pids.length !== 1)
      throw new Error(`${path} holds the profiles of ${pids.length} processes (${pids.join(', ')}): name one file`);
    pid = pids[0]!;
  } else {
    const match = profileName.exec(basename(path));
    if (!match) return { main: path, workers: [] }; // renamed: read it alone
    pid = match[1]!;
  }
  const mine = files.filter((file) => profileName.exec(file)![1] === pid).map((file) => join(directory, file));
  const main = mine.find((file) => profileName.exec(basename(file))![2] === '0');
  if (!main) throw new Error(`no main-thread profile (thread 0) of process ${pid} in ${directory}`);
  return { main, workers: mine.filter((file) => file !== main) };
}

interface Summary {
  label: string;
  calls: number;
  perArea: Map<string, number>; // µs per call
  perFunction: Map<string, { frame: CallFrame; us: number }>; // µs per call
  workersUs: number; // µs per call, all worker threads
}

function summarise(path: string, calls: number): Summary {
  const { main, workers } = processProfiles(path);
  const read = (file: string) => selfTimes(JSON.parse(readFileSync(file, 'utf8')) as Profile);
  const perArea = new Map(areaNames.map((area) => [area, 0]));
  const perFunction = new Map<string, { frame: CallFrame; us: number }>();
  for (const [key, { frame, us }] of read(main)) {
    const area = areaOf(frame)!;
    perArea.set(area, perArea.get(area)! + us / calls);
    perFunction.set(key, { frame, us: us / calls });
  }
  let workersUs = 0;
  for (const file of workers) for (const { us } of read(file).values()) workersUs += us / calls;
  return { label: basename(main), calls, perArea, perFunction, workersUs };
}

function main() {
  const args = process.argv.slice(2);
  if (args.length !== 2 && args.length !== 4)
    throw new Error('usage: profile-diff <profile or directory> <calls> [<profile or directory> <calls>]');
  const summaries: Summary[] = [];
  for (let index = 0; index < args.length; index += 2) {
    const calls = Number(args[index + 1]);
    if (!Number.isInteger(calls) || calls <= 0) throw new Error(`calls must be a positive integer: ${args[index + 1]}`);
    summaries.push(summarise(args[index]!, calls));
  }
  const [before, after] = summaries as [Summary, Summary | undefined];
  const us = (value: number) => value.toFixed(1);
  const change = (a: number, b: number) => `${b - a >= 0 ? '+' : ''}${(b - a).toFixed(1)}`;
  const total = (summary: Summary) => [...summary.perArea.values()].reduce((sum, value) => sum + value, 0);
  const row = (label: string, value: (summary: Summary) => number) =>
    `| ${label} | ${us(value(before))} |${after ? ` ${us(value(after))} | ${change(value(before), value(after))} |` : ''}`;
  const lines = [
    `| area (main thread, µs per call) | before |${after ? ' after | change |' : ''}`,
    `|---|---|${after ? '---|---|' : ''}`,
    ...areaNames.map((area) => row(area, (summary) => summary.perArea.get(area)!)),
    row('**main thread in all**', total),
    row('worker threads (SQLite reader, checkpoints)', (summary) => summary.workersUs),
  ];
  console.log(lines.join('\n'));
  for (const [name, summary] of [
    ['before', before],
    ['after', after],
  ] as const)
    if (summary) console.log(`${name}: ${summary.label}, ${summary.calls.toLocaleString('en')} calls`);

  // The functions behind the figures: those that moved most (or the dearest, for one profile).
  const keys = new Set([...before.perFunction.keys(), ...(after?.perFunction.keys() ?? [])]);
  const moved = [...keys]
    .map((key) => {
      const frame = (before.perFunction.get(key) ?? after?.perFunction.get(key))!.frame;
      const a = before.perFunction.get(key)?.us ?? 0;
      const b = after?.perFunction.get(key)?.us ?? 0;
      return { frame, a, b, weight: after ? Math.abs(b - a) : a };
    })
    .sort((x, y) => y.weight - x.weight)
    .slice(0, Number(process.env.PROFILE_TOP ?? 20));
  console.log(`\n| function (file) | area | before |${after ? ' after | change |' : ''}`);
  console.log(`|---|---|---|${after ? '---|---|' : ''}`);
  for (const { frame, a, b } of moved) {
    const file = frame.url.replace(/^.*\/node_modules\//, '').replace(/^.*\/(server|bench)\/(dist|src)\//, '');
    const name = `${frame.functionName || '(anonymous)'} (${file || 'native'})`;
    console.log(`| ${name} | ${areaOf(frame)} | ${us(a)} |${after ? ` ${us(b)} | ${change(a, b)} |` : ''}`);
  }
}

try {
  main();
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 2;
}
