import { Pool } from 'undici';
import type { LoadTarget } from './wrk.js';

export interface StreamResult {
  streamsPerSecond: number;
  streams: number;
  ttfbP50Ms: number;
  ttfbP99Ms: number;
  errors: number;
}

const percentileOf = (sorted: number[], fraction: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]! : Number.NaN;

/**
 * `concurrency` clients each opening streams (chat completions, or the target's own) back to back for `seconds`;
 * `paced` asks the mock for a model-paced stream (see mock-upstream.ts).
 */
export async function runStreams(
  target: LoadTarget,
  concurrency: number,
  seconds: number,
  paced = false,
): Promise<StreamResult> {
  const url = new URL(target.url);
  const pool = new Pool(url.origin, { connections: concurrency, pipelining: 1 });
  const deadline = Date.now() + seconds * 1000;
  const firstByteMs: number[] = [];
  let errors = 0;
  // Chat targets are asked to stream here; the native fronts' bodies stream already.
  let body = target.body.includes('"stream":true') ? target.body : target.body.replace(/}$/, ',"stream":true}');
  if (paced) body = body.replace('"model":"gpt-4o-mini"', '"model":"gpt-4o-mini-2024-07-18"');
  const client = async () => {
    while (Date.now() < deadline) {
      const started = process.hrtime.bigint();
      try {
        const response = await pool.request({
          path: url.pathname,
          method: 'POST',
          headers: { ...target.headers, 'content-type': 'application/json' },
          body,
        });
        let first = true;
        for await (const _part of response.body) {
          if (first) {
            firstByteMs.push(Number(process.hrtime.bigint() - started) / 1e6);
            first = false;
          }
        }
        if (response.statusCode !== 200) errors++;
      } catch {
        errors++;
      }
    }
  };
  const startedAt = Date.now();
  await Promise.all(Array.from({ length: concurrency }, client));
  const elapsedSeconds = (Date.now() - startedAt) / 1000;
  await pool.close();
  firstByteMs.sort((a, b) => a - b);
  return {
    streams: firstByteMs.length,
    streamsPerSecond: firstByteMs.length / elapsedSeconds,
    ttfbP50Ms: percentileOf(firstByteMs, 0.5),
    ttfbP99Ms: percentileOf(firstByteMs, 0.99),
    errors,
  };
}
