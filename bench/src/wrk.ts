import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export interface LoadTarget {
  name: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface LoadResult {
  requestsPerSecond: number;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  /** Of the errors, the answers other than 2xx/3xx (the rest are wrk's socket errors and timeouts). */
  non2xx: number;
}

const luaDirectory = mkdtempSync(join(tmpdir(), 'modelgate-bench-'));

function luaScript(target: LoadTarget): string {
  const file = join(luaDirectory, `${target.name}.lua`);
  const headers = Object.entries(target.headers)
    .map(([name, value]) => `wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`)
    .join('\n');
  writeFileSync(
    file,
    `wrk.method = "POST"\nwrk.body = ${JSON.stringify(target.body)}\nwrk.headers["Content-Type"] = "application/json"\n${headers}\n`,
  );
  return file;
}

const toMs = (value: string): number => {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(value.trim());
  if (!match) return Number.NaN;
  const amount = Number(match[1]);
  return match[2] === 'us'
    ? amount / 1000
    : match[2] === 'ms'
      ? amount
      : match[2] === 's'
        ? amount * 1000
        : amount * 60_000;
};

/**
 * Closed-loop load with wrk: `connections` clients for `seconds`, latency percentiles included. Asynchronous, so
 * the bench can sample the server while it runs.
 */
export async function runWrk(target: LoadTarget, connections: number, seconds: number): Promise<LoadResult> {
  const threads = Math.min(2, connections);
  const { stdout: output } = await promisify(execFile)(
    'wrk',
    [
      '-t',
      String(threads),
      '-c',
      String(connections),
      '-d',
      `${seconds}s`,
      '--latency',
      '-s',
      luaScript(target),
      target.url,
    ],
    { encoding: 'utf8', timeout: (seconds + 30) * 1000 },
  );
  const percentile = (label: string) => toMs(new RegExp(`^\\s*${label}%\\s+(\\S+)`, 'm').exec(output)?.[1] ?? '');
  const requests = Number(/(\d+) requests in/.exec(output)?.[1] ?? 0);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const errors = non2xx + (socketErrors ? socketErrors.slice(1).reduce((sum, count) => sum + Number(count), 0) : 0);
  return {
    requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? 0),
    requests,
    p50Ms: percentile('50'),
    p99Ms: percentile('99'),
    errors,
    non2xx,
  };
}
