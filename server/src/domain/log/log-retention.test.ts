import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { ApiClient } from '../../../test/api-client.js';
import { availableEngines } from '../../../test/engines.js';
import { logRow } from '../../../test/log-rows.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import type { NewLog } from '../../db/tables.js';
import { nowSeconds } from '../../lib/time.js';
import { logRetentionJob } from '../../jobs/log-retention.job.js';
import { LogType } from './log.constants.js';
import { deleteLogsBefore } from './log.repository.js';
import { runLogRetention } from './log-retention.js';

const day = 86_400;
const ages = [1, 6, 9, 31, 400]; // days
/** The order the ages are written in: ids do not follow time, as after an import. */
const insertOrder = [9, 400, 1, 31, 6];
const types = [LogType.Unknown, LogType.TopUp, LogType.Consume, LogType.Manage, LogType.System, LogType.Test];

const log = (type: number, createdAt: number, content: string): NewLog =>
  logRow({ type, created_at: createdAt, content });

describe.each(await availableEngines())('log retention and sliced deletes on $label', (engine) => {
  let server: TestServer;
  let root: ApiClient;
  const db = () => server.context.logDatabase.db;
  const now = nowSeconds();

  /** Every type at every age, in insertOrder. */
  const seedEveryAge = async () => {
    const rows = insertOrder.flatMap((age) => types.map((type) => log(type, now - age * day, `${type}:${age}`)));
    await db().insertInto('logs').values(rows).execute();
  };
  const remaining = async () =>
    (await db().selectFrom('logs').select('content').orderBy('content').execute()).map((row) => row.content).sort();
  const expected = (keep: (type: number, age: number) => boolean) =>
    ages.flatMap((age) => types.filter((type) => keep(type, age)).map((type) => `${type}:${age}`)).sort();
  const setOption = async (key: string, value: number) => {
    const response = await root.put('/api/option/', { key, value: String(value) });
    expect(response.body.success).toBe(true);
  };
  const rollupsPresent = async () => {
    try {
      await sql`select 1 from log_rollups where 1 = 0`.execute(db());
      return true;
    } catch {
      return false;
    }
  };

  beforeAll(async () => {
    server = await startTestServer({ engine });
    root = await server.rootClient();
  });
  afterAll(() => server.close());
  beforeEach(async () => {
    await db().deleteFrom('logs').execute();
    for (const key of [
      'LogRetentionDaysConsume',
      'LogRetentionDaysTopUp',
      'LogRetentionDaysManage',
      'LogRetentionDaysSystem',
      'LogRetentionDaysTest',
      'LogRollupRetentionDays',
    ])
      await setOption(key, 0);
  });

  test('with every option at 0 (the default) the job removes nothing', async () => {
    await seedEveryAge();
    await logRetentionJob.run(server.context, new AbortController().signal);
    expect(await remaining()).toEqual(expected(() => true));
  });

  test('each log type is kept for its own number of days; unknown-type logs are kept', async () => {
    await seedEveryAge();
    await setOption('LogRetentionDaysConsume', 30);
    await setOption('LogRetentionDaysTopUp', 365);
    await setOption('LogRetentionDaysManage', 7);
    await setOption('LogRetentionDaysTest', 2);
    // System stays at 0: kept forever.
    await logRetentionJob.run(server.context, new AbortController().signal);
    const limits: Record<number, number> = {
      [LogType.Consume]: 30,
      [LogType.TopUp]: 365,
      [LogType.Manage]: 7,
      [LogType.Test]: 2,
    };
    expect(await remaining()).toEqual(expected((type, age) => !(limits[type] && age > limits[type])));
  });

  test('the retention deletes in slices, and a second pass finds nothing left', async () => {
    await seedEveryAge();
    await setOption('LogRetentionDaysConsume', 5);
    await setOption('LogRetentionDaysSystem', 5);
    let slices = 0;
    const result = await runLogRetention(server.context, undefined, {
      sliceWidth: 30 * day,
      targetSliceMs: 0,
      onSlice: () => void (slices += 1),
    });
    // 4 consume and 4 system logs are older than 5 days (6, 9, 31 and 400).
    expect(result?.logs).toEqual({ [LogType.Consume]: 4, [LogType.System]: 4 });
    expect(slices).toBeGreaterThanOrEqual(4);
    expect(await remaining()).toEqual(
      expected((type, age) => !((type === LogType.Consume || type === LogType.System) && age > 5)),
    );
    expect((await runLogRetention(server.context))?.logs).toEqual({ [LogType.Consume]: 0, [LogType.System]: 0 });
  });

  test('a sliced delete runs ceil(range / width) slices over the matching seconds and keeps the rest', async () => {
    // 40 logs, ids in time order; the oldest 25 are about 10 days old, one a second.
    const oldest = now - 10 * day;
    const rows = Array.from({ length: 40 }, (_, index) =>
      log(LogType.Consume, index < 25 ? oldest + index : now, `row-${String(index).padStart(2, '0')}`),
    );
    await db().insertInto('logs').values(rows).execute();
    let slices = 0;
    const deleted = await deleteLogsBefore(db(), now - day, {
      sliceWidth: 4,
      targetSliceMs: 0,
      onSlice: ({ slices: count }) => void (slices = count),
    });
    expect(deleted).toBe(25);
    expect(slices).toBe(Math.ceil(25 / 4));
    expect(await remaining()).toEqual(rows.slice(25).map((row) => row.content));
  });

  test("the admin delete answers one-api's count and leaves its progress to read", async () => {
    await seedEveryAge();
    const cutoff = now - 8 * day; // ages 9, 31 and 400
    const response = await root.delete(`/api/log/?target_timestamp=${cutoff}`);
    expect(response.body).toEqual({ success: true, message: '', data: 3 * types.length });
    expect(await remaining()).toEqual(expected((_, age) => age < 8));
    const progress = (await root.get('/api/log/cleanup/status')).body.data;
    expect(progress).toMatchObject({ running: false, scope: 'manual' });
    expect(progress.done).toBeGreaterThan(0);
    expect(progress.done).toBe(progress.total);
    expect(progress.finished_at).toBeGreaterThanOrEqual(progress.started_at);
    // Users may not read it.
    const alice = server.client();
    expect((await alice.get('/api/log/cleanup/status')).body.success).toBe(false);
  });

  test('consume rollups older than their days go, whole hours only; consume logs not yet rolled up stay', async (context) => {
    if (!(await rollupsPresent())) {
      context.skip('log_rollups does not exist in this tree yet: the rollup retention is not tested');
      return;
    }
    const hour = 3600;
    const thisHour = now - (now % hour);
    const hours = [thisHour, thisHour - 2 * day, thisHour - 10 * day, thisHour - 10 * day - hour, thisHour - 50 * day];
    await sql`delete from log_rollups`.execute(db());
    for (const [index, start] of hours.entries())
      await sql`insert into log_rollups (hour, user_id, username, token_name, model_name, channel_id)
                values (${start}, 1, 'root', 't', ${`m${index}`}, 1)`.execute(db());
    // The hour that straddles the cutoff (now - 3 days) has logs within the retention: it stays.
    const straddling = now - 3 * day - ((now - 3 * day) % hour);
    await sql`insert into log_rollups (hour, user_id, username, token_name, model_name, channel_id)
              values (${straddling}, 1, 'root', 't', 'straddling', 1)`.execute(db());
    await setOption('LogRollupRetentionDays', 3);
    const result = await runLogRetention(server.context, undefined, { now });
    expect(result?.rollups).toBe(3);
    const left = await sql<{ hour: number | string }>`select hour from log_rollups order by hour`.execute(db());
    expect(left.rows.map((row) => Number(row.hour))).toEqual(
      [straddling, thisHour - 2 * day, thisHour].sort((a, b) => a - b),
    );

    // Consume logs below the rollups' background cursor are not in the rollups yet: retention keeps them.
    await seedEveryAge();
    const consumeIds = (
      await db().selectFrom('logs').select('id').where('type', '=', LogType.Consume).orderBy('id').execute()
    ).map((row) => row.id);
    const before = await sql<{
      cursor_id: number | string;
    }>`select cursor_id from log_rollup_state where id = 1`.execute(db());
    // insertOrder is 9, 400, 1, 31, 6 days: the 9- and 400-day-old consume logs lie below the cursor.
    await sql`update log_rollup_state set cursor_id = ${consumeIds[2]} where id = 1`.execute(db());
    try {
      await setOption('LogRetentionDaysConsume', 5);
      await runLogRetention(server.context);
      const consumeLeft = await db()
        .selectFrom('logs')
        .select('content')
        .where('type', '=', LogType.Consume)
        .orderBy('content')
        .execute();
      expect(consumeLeft.map((row) => row.content).sort()).toEqual(['2:1', '2:400', '2:9']);
    } finally {
      await sql`update log_rollup_state set cursor_id = ${Number(before.rows[0]?.cursor_id ?? 0)} where id = 1`.execute(
        db(),
      );
    }
  });
});
