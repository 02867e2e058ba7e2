import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ApiClient } from '../../../../test/api-client.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';

const rowCount = 300_000;
const day = 86_400;

/**
 * SQLite, the default: better-sqlite3 runs on the event loop, so before slicing one DELETE over a large table
 * stopped every request (88 s for 4 million rows, issue 16; one statement over these 300,000 rows holds the loop
 * for seconds). What is asserted is the shape: the delete runs in many slices and /api/status answers between
 * them. The time bounds only catch that unsliced statement, an order of magnitude above a slice even on a
 * loaded CI machine (a 200 ms bound failed CI at 217 ms); the figures themselves belong to `npm run logs`.
 */
describe('an admin delete of many logs on SQLite', () => {
  let server: TestServer;
  let root: ApiClient;
  beforeAll(async () => {
    server = await startTestServer();
    root = await server.rootClient();
    const now = Math.floor(Date.now() / 1000);
    // One transaction: 300,000 logs 30 to 60 days old, then 1,000 of today.
    server.context.logDatabase.sqlite!.exec(`
      with recursive n(i) as (select 1 union all select i + 1 from n where i < ${rowCount})
      insert into logs (user_id, username, created_at, type, content, token_name, model_name, quota,
                        prompt_tokens, completion_tokens, channel_id, request_id, elapsed_time, is_stream,
                        system_prompt_reset)
      select 1, 'root', ${now - 60 * day} + i * 8, 2, 'old', 'default', 'gpt-4o', 100, 10, 5, 1, 'r', 900, 0, 0
      from n;
      with recursive n(i) as (select 1 union all select i + 1 from n where i < 1000)
      insert into logs (user_id, username, created_at, type, content, token_name, model_name, quota,
                        prompt_tokens, completion_tokens, channel_id, request_id, elapsed_time, is_stream,
                        system_prompt_reset)
      select 1, 'root', ${now} - i, 2, 'new', 'default', 'gpt-4o', 100, 10, 5, 1, 'r', 900, 0, 0 from n;
    `);
  }, 120_000);
  afterAll(() => server.close());

  test('the relay-side event loop and /api/status stay responsive; the answer is the count', async () => {
    await (await fetch(`${server.url}/api/status`)).arrayBuffer(); // fetch's first use loads undici: not the delete's
    const histogram = monitorEventLoopDelay({ resolution: 5 });
    const statusLatencies: number[] = [];
    let deleting = true;
    const watchStatus = (async () => {
      for (let round = 0; deleting && round < 100_000; round++) {
        const started = performance.now();
        const response = await fetch(`${server.url}/api/status`);
        await response.arrayBuffer();
        statusLatencies.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    histogram.enable();
    await new Promise((resolve) => setTimeout(resolve, 20)); // the histogram's timer is running
    const started = performance.now();
    const response = await root.delete(`/api/log/?target_timestamp=${Math.floor(Date.now() / 1000) - day}`);
    const elapsedMs = performance.now() - started;
    histogram.disable();
    deleting = false;
    await watchStatus;

    expect(response.body).toEqual({ success: true, message: '', data: rowCount });
    const left = await server.context.logDatabase.db
      .selectFrom('logs')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    expect(Number(left.count)).toBe(1000);

    const maxDelayMs = histogram.max / 1e6;
    const maxStatusMs = Math.max(...statusLatencies);
    const progress = (await root.get('/api/log/cleanup/status')).body.data;
    console.info(
      `deleted ${rowCount} logs in ${elapsedMs.toFixed(0)} ms (${Math.round(rowCount / (elapsedMs / 1000))} rows/s), ` +
        `${progress.done} slices; event-loop delay max ${maxDelayMs.toFixed(1)} ms, ` +
        `p99 ${(histogram.percentile(99) / 1e6).toFixed(1)} ms; /api/status ${statusLatencies.length} calls, ` +
        `max ${maxStatusMs.toFixed(1)} ms`,
    );
    expect(progress.done).toBeGreaterThan(5);
    expect(statusLatencies.length).toBeGreaterThan(5);
    expect(maxDelayMs).toBeLessThan(1_000);
    expect(maxStatusMs).toBeLessThan(1_500);
  }, 120_000);
});
