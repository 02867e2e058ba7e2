import OpenAI from 'openai';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../../test/engines.js';
import { MockOpenAIUpstream } from '../../../test/mock-openai-upstream.js';
import { createChannel, createToken, createUser, settled } from '../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { ensureLogRollups } from '../../db/migrations/2026_11_25_1100_create_log_rollups.js';
import type { NewLog } from '../../db/tables.js';
import { logRollupBackfillJob } from '../../jobs/log-rollup-backfill.job.js';
import { backfillStep, consumptionSeries, consumptionTotals } from './log-rollup.js';
import type { LogFilters } from './log.repository.js';

/** The rollups recomputed from the raw consume logs, keyed like the table. */
const detailKey = ['user_id', 'username', 'token_name', 'model_name', 'channel_id'] as const;
const modelKey = ['model_name', 'channel_id'] as const;
const sums = ['calls', 'quota', 'prompt_tokens', 'completion_tokens', 'elapsed_ms'] as const;

/** A rollup table recomputed from the raw consume logs, one line per row (hour, key columns, sums). */
async function rollupsFromRaw(server: TestServer, key: readonly (typeof detailKey)[number][] = detailKey) {
  const hour = sql<number>`(created_at - (created_at % 3600))`;
  const rows = await server.context.logDatabase.db
    .selectFrom('logs')
    .select((eb) => [
      hour.as('hour'),
      ...key,
      eb.fn.countAll<number>().as('calls'),
      eb.fn.sum<number>('quota').as('quota'),
      eb.fn.sum<number>('prompt_tokens').as('prompt_tokens'),
      eb.fn.sum<number>('completion_tokens').as('completion_tokens'),
      eb.fn.sum<number>('elapsed_time').as('elapsed_ms'),
    ])
    .where('type', '=', 2)
    .groupBy([hour, ...key])
    .execute();
  return lines(rows, key);
}

/** A rollup table as stored, in the same lines. */
async function storedRollups(server: TestServer, table: 'log_rollups' | 'log_rollups_by_model' = 'log_rollups') {
  const rows = await server.context.logDatabase.db.selectFrom(table).selectAll().execute();
  return lines(rows, table === 'log_rollups' ? detailKey : modelKey);
}

const lines = (rows: Record<string, unknown>[], key: readonly string[]) =>
  rows.map((row) => ['hour', ...key, ...sums].map((column) => String(row[column])).join('|')).sort();

/** The chart's answer computed from the raw logs in JavaScript: the reference the rollups must match. */
async function referenceSeries(
  server: TestServer,
  filters: LogFilters,
  start: number,
  end: number,
  width: number,
  offset: number,
) {
  const rows = await server.context.logDatabase.db.selectFrom('logs').selectAll().where('type', '=', 2).execute();
  const points = new Map<
    string,
    {
      time: number;
      model_name: string;
      quota: number;
      requests: number;
      prompt_tokens: number;
      completion_tokens: number;
    }
  >();
  for (const row of rows) {
    const at = Number(row.created_at);
    if (at < start || at > end) continue;
    if (filters.userId !== undefined && Number(row.user_id) !== filters.userId) continue;
    if (filters.modelName && row.model_name !== filters.modelName) continue;
    if (filters.tokenName && row.token_name !== filters.tokenName) continue;
    if (filters.channel && Number(row.channel_id) !== filters.channel) continue;
    const time = at + offset - ((((at + offset) % width) + width) % width) - offset;
    const key = `${time}|${row.model_name}`;
    let point = points.get(key);
    if (!point)
      points.set(
        key,
        (point = { time, model_name: row.model_name, quota: 0, requests: 0, prompt_tokens: 0, completion_tokens: 0 }),
      );
    point.quota += Number(row.quota);
    point.requests += 1;
    point.prompt_tokens += Number(row.prompt_tokens);
    point.completion_tokens += Number(row.completion_tokens);
  }
  return [...points.values()].sort((a, b) => a.time - b.time || a.model_name.localeCompare(b.model_name));
}

const sortPoints = <T extends { time: number; model_name: string }>(points: T[]) =>
  [...points].sort((a, b) => a.time - b.time || a.model_name.localeCompare(b.model_name));

describe.each(await availableEngines())('hourly log rollups on $label', (engine) => {
  let server: TestServer;
  let upstream: MockOpenAIUpstream;
  beforeAll(async () => {
    server = await startTestServer({ engine });
    upstream = await MockOpenAIUpstream.start({ usage: { prompt_tokens: 7, completion_tokens: 3 } });
    await createChannel(server, { base_url: upstream.url, models: 'gpt-3.5-turbo,gpt-4o-mini' });
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  test('the relay writes each consume log into its hourly rollup, which equals the sum of the raw rows', async () => {
    for (const name of ['ru-a', 'ru-b']) {
      const userId = await createUser(server, { username: `${name}-${engine.name}`, quota: 10_000_000 });
      for (const tokenName of ['one', 'two']) {
        const token = await createToken(server, userId, { name: tokenName });
        const client = new OpenAI({ apiKey: `sk-${token.key}`, baseURL: `${server.url}/v1`, maxRetries: 0 });
        await Promise.all(
          ['gpt-3.5-turbo', 'gpt-4o-mini', 'gpt-3.5-turbo'].map((model, index) =>
            index === 2
              ? client.chat.completions
                  .create({ model, messages: [{ role: 'user', content: 'hi' }], stream: true })
                  .then(async (stream) => {
                    for await (const chunk of stream) void chunk;
                  })
              : client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] }),
          ),
        );
      }
    }
    await settled(server);
    const stored = await storedRollups(server);
    expect(stored.length).toBeGreaterThanOrEqual(8);
    expect(stored).toEqual(await rollupsFromRaw(server));
    expect(await storedRollups(server, 'log_rollups_by_model')).toEqual(await rollupsFromRaw(server, modelKey));
  });

  test('logs that predate the rollups are read raw until the background job has rolled them up, then from the rollups', async () => {
    // A migrated install: logs over three days written straight into the table, then the rollups created.
    const { db, dialect } = server.context.logDatabase;
    const base = 1_700_000_000;
    const seeded: NewLog[] = [];
    for (let index = 0; index < 600; index++)
      seeded.push({
        user_id: 900 + (index % 3),
        username: `old-${index % 3}`,
        created_at: base + index * 431,
        type: index % 10 === 0 ? 1 : 2,
        content: '',
        token_name: `t${index % 4}`,
        model_name: index % 2 ? 'gpt-4' : 'claude-3',
        quota: 10 + (index % 7),
        prompt_tokens: index % 5,
        completion_tokens: index % 3,
        channel_id: 1 + (index % 2),
        request_id: '',
        elapsed_time: 100,
        is_stream: 0,
        system_prompt_reset: 0,
      });
    await db.insertInto('logs').values(seeded).execute();
    await db.deleteFrom('log_rollups').execute();
    await db.deleteFrom('log_rollups_by_model').execute();
    await db.deleteFrom('log_rollup_state').execute();
    await ensureLogRollups(db, dialect);

    const cases: { filters: LogFilters; start: number; end: number; width: number; offset: number }[] = [
      { filters: {}, start: base + 1234, end: base + 600 * 431 - 77, width: 86_400, offset: 8 * 3600 },
      { filters: { userId: 901 }, start: base, end: base + 200_000, width: 3600, offset: 0 },
      {
        filters: { modelName: 'gpt-4', tokenName: 't1' },
        start: base + 999,
        end: base + 250_000,
        width: 86_400,
        offset: 19_800,
      },
      { filters: {}, start: base + 10, end: base + 260_000, width: 86_400, offset: -12_600 },
      { filters: { modelName: 'claude-3', channel: 1 }, start: base + 7, end: base + 258_000, width: 3600, offset: 0 },
    ];
    const check = async () => {
      for (const { filters, start, end, width, offset } of cases) {
        const expected = await referenceSeries(server, filters, start, end, width, offset);
        const series = await consumptionSeries(
          db,
          { ...filters, startTimestamp: start, endTimestamp: end },
          width,
          offset,
        );
        expect(sortPoints(series)).toEqual(expected);
        const totals = await consumptionTotals(db, { ...filters, startTimestamp: start, endTimestamp: end });
        expect(totals.quota).toBe(expected.reduce((sum, point) => sum + point.quota, 0));
        expect(totals.calls).toBe(expected.reduce((sum, point) => sum + point.requests, 0));
      }
    };
    await check(); // raw, before any rollup of the old logs
    // The job, as the scheduler runs it, until done: several slices of 5,000 ids would do; 600 take one.
    await logRollupBackfillJob.run(server.context, new AbortController().signal);
    expect(await backfillStep(db, dialect)).toBe(true);
    const state = await db.selectFrom('log_rollup_state').selectAll().executeTakeFirstOrThrow();
    expect(Number(state.frontier)).toBe(0);
    expect(await storedRollups(server)).toEqual(await rollupsFromRaw(server));
    expect(await storedRollups(server, 'log_rollups_by_model')).toEqual(await rollupsFromRaw(server, modelKey));
    await check(); // from the rollups, edges and cut hours raw
  });
});
