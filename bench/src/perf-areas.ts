// A whole-process CPU profile turned into areas: what `--cpu-prof` cannot see. V8's profiler samples the main
// thread's JavaScript only; Linux's `perf` samples every thread of the process, kernel included: the garbage
// collector's helper threads (concurrent marking, sweeping, parallel scavenges), TurboFan compiling in the
// background, SQLite's native code, and the system calls' kernel work.
//   BENCH_SERVER_FLAGS=--perf-basic-prof npm run bench      (names the JIT's functions in /tmp/perf-<pid>.map)
//   perf record -e cpu-clock -F 1000 -g -p $(pgrep -nf server/dist/main.js) -o run.data -- sleep 10   (in a load)
//   perf script -i run.data > run.txt
//   npm run perf-areas -- run.txt [other.txt]               (a second file: a column beside the first)
// Each sample counts for its innermost frame when that is the kernel, the collector, the compiler or SQLite;
// otherwise for the nearest JavaScript frame's file (the V8 builtins and runtime it called are its own work).
import { readFileSync } from 'node:fs';

/** Where a sample's innermost frame is not JavaScript's, by that frame alone. */
const nativeAreas: { area: string; frame: RegExp }[] = [
  { area: 'kernel (system calls, network)', frame: /\[kernel\.kallsyms\]/ },
  {
    area: 'garbage collection (every thread)',
    frame:
      /v8::internal::(Scaveng|ConcurrentMarking|MarkCompact|Marking|Sweeper|Heap::|Evacuat|RememberedSet|MemoryAllocator|GCTracer|MinorMarkSweep)/,
  },
  { area: 'V8 compiling (TurboFan, Maglev)', frame: /v8::internal::(compiler|maglev|baseline)::|Compiler::/ },
  { area: 'SQLite (native)', frame: /better_sqlite3\.node/ },
];

/** The area of a JavaScript frame (`JS:*name file:line`), by its file. */
function scriptArea(frame: string): string | undefined {
  if (!/\bJS:|RegExp:/.test(frame)) return undefined;
  const ours = /server\/dist\/([\w-]+(?:\/[\w-]+)?)/.exec(frame);
  if (ours) return `ModelGate ${ours[1]!.replace(/\/[\w-]+\.js$/, '')}`;
  if (frame.includes('/undici/')) return 'undici (upstream HTTP client)';
  if (/ node:/.test(frame)) return "Node's internals (HTTP server, streams, events)";
  if (frame.includes('node_modules')) return 'other dependencies';
  if (frame.includes('RegExp:')) return 'regular expressions';
  return 'other JavaScript';
}

function areasOf(file: string): { counts: Map<string, number>; samples: number } {
  const counts = new Map<string, number>();
  let samples = 0;
  for (const sample of readFileSync(file, 'utf8').split(/\n\s*\n/)) {
    const frames = sample
      .split('\n')
      .slice(1)
      .map((line) => line.trim())
      .filter(Boolean);
    if (frames.length === 0) continue;
    samples++;
    const innermost = frames[0]!;
    const area =
      nativeAreas.find(({ frame }) => frame.test(innermost))?.area ??
      frames.map(scriptArea).find((found) => found !== undefined) ??
      'native, no JavaScript frame (libuv, V8 runtime, libc)';
    counts.set(area, (counts.get(area) ?? 0) + 1);
  }
  return { counts, samples };
}

const files = process.argv.slice(2);
if (files.length < 1 || files.length > 2) {
  console.error('usage: npm run perf-areas -- <perf script output> [<another>]');
  process.exit(2);
}
const profiles = files.map(areasOf);
const total = (area: string) =>
  profiles.reduce((sum, { counts, samples }) => sum + (counts.get(area) ?? 0) / samples, 0);
const areas = [...new Set(profiles.flatMap(({ counts }) => [...counts.keys()]))].sort((a, b) => total(b) - total(a));
const share = (count: number | undefined, samples: number) => `${((100 * (count ?? 0)) / samples).toFixed(1)} %`;
console.log(`| area (share of the process's CPU samples) | ${files.join(' | ')} |`);
console.log(`|---|${files.map(() => '---|').join('')}`);
for (const area of areas)
  console.log(`| ${area} | ${profiles.map(({ counts, samples }) => share(counts.get(area), samples)).join(' | ')} |`);
console.log(`| samples | ${profiles.map(({ samples }) => samples).join(' | ')} |`);
