import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../../../test/engines.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';
import type { NewLog } from '../../../db/tables.js';
import { insertLogRows, type LogRow } from '../../../domain/log/log.writer.js';
import { createTestUser, type TestUser } from '../../../../test/test-users.js';

/** Midnight UTC of a fixed day, so buckets are predictable. */
const day = 1_700_006_400;

describe.each(await availableEngines())('logs on $label', (engine) => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;

  // Through the log writer, as the relay writes them, so the hourly rollups follow.
  const insertLogs = (rows: NewLog[]) =>
    insertLogRows(server.context.logDatabase.db, server.context.logDatabase.dialect, rows as LogRow[]);
  const consume = (user: TestUser, createdAt: number, extra: Partial<NewLog> = {}): NewLog => ({
    user_id: user.id,
    username: user.username,
    created_at: createdAt,
    type: 2,
    content: '倍率：0.25 × 1.00 × 3.00',
    token_name: 'default',
    model_name: 'gpt-4o',
    quota: 100,
    prompt_tokens: 10,
    completion_tokens: 5,
    channel_id: 1,
    request_id: 'r',
    elapsed_time: 1200,
    is_stream: 1,
    system_prompt_reset: 0,
    ...extra,
  });

  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await createTestUser(server, { role: 10 });
    alice = await createTestUser(server);
    bob = await createTestUser(server);
    await insertLogs([
      consume(alice, day + 10),
      consume(alice, day + 20, { model_name: 'gpt-4o-mini', quota: 7, token_name: 'script' }),
      consume(alice, day + 3600 + 5, { quota: 50, channel_id: 2 }),
      consume(alice, day + 86_400 + 1, { quota: 1000, prompt_tokens: 100, completion_tokens: 50 }),
      // Written before alice was renamed: the self views still find it by id.
      consume(alice, day + 30, { username: 'old-name', quota: 3 }),
      {
        user_id: alice.id,
        username: alice.username,
        created_at: day + 40,
        type: 1,
        content: '通过兑换码充值 ＄0.000200 额度',
        quota: 100,
      },
      {
        user_id: alice.id,
        username: alice.username,
        created_at: day + 50,
        type: 3,
        content: '管理员将用户额度从 1修改为 2',
      },
      consume(bob, day + 15, { quota: 9 }),
      { user_id: bob.id, username: bob.username, created_at: day + 60, type: 4, content: '100% 新用户注册赠送' },
      { user_id: bob.id, username: bob.username, created_at: day + 70, type: 4, content: '100x other' },
    ]);
  });
  afterAll(async () => server?.close());

  type Log = {
    id: number;
    user_id: number;
    type: number;
    quota: number;
    content: string;
    model_name: string;
    channel: number;
    other: string;
  };
  const get = async (client: TestUser['client'], path: string) => {
    const response = await client.get(path);
    expect(response.body.success, `${path}: ${response.body.message}`).toBe(true);
    return response.body.data;
  };

  test('all-user views are for admins only', async () => {
    expect((await server.client().get('/api/log/self/')).status).toBe(401);
    for (const path of ['/api/log/', '/api/log/search?keyword=1', '/api/log/stat', '/api/log/series']) {
      expect((await alice.client.get(path)).body, path).toEqual({
        success: false,
        message: '无权进行此操作，权限不足',
      });
    }
    expect((await alice.client.delete('/api/log/?target_timestamp=9999999999')).body.success).toBe(false);
    expect((await server.context.logDatabase.db.selectFrom('logs').select('id').execute()).length).toBe(10);
  });

  test('the admin list pages newest first and applies every filter', async () => {
    const all: Log[] = await get(admin.client, '/api/log/');
    expect(all).toHaveLength(10);
    expect(all[0]!.id).toBeGreaterThan(all[9]!.id);
    expect(Object.keys(all[0]!).sort()).toEqual(
      [
        'channel',
        'completion_tokens',
        'content',
        'created_at',
        'elapsed_time',
        'id',
        'is_stream',
        'model_name',
        'other',
        'prompt_tokens',
        'quota',
        'request_id',
        'system_prompt_reset',
        'token_name',
        'type',
        'user_id',
        'username',
      ].sort(),
    );
    const stream = all.find((log) => log.quota === 1000)!;
    expect(stream).toMatchObject({ is_stream: true, system_prompt_reset: false, channel: 1, elapsed_time: 1200 });
    // A log without a receipt (written before the column, or not a consume log) has '' as new-api answers.
    expect(stream.other).toBe('');
    expect(await get(admin.client, '/api/log/?p=1')).toEqual([]);
    // The console sends unset filters as empty values.
    const blank = '/api/log/?p=0&type=0&username=&token_name=&model_name=&start_timestamp=&end_timestamp=&channel=';
    expect(await get(admin.client, blank)).toHaveLength(10);
    expect(await get(alice.client, blank.replace('/log/', '/log/self/'))).toHaveLength(7);
    const count = async (query: string) => ((await get(admin.client, `/api/log/?${query}`)) as Log[]).length;
    expect(await count('type=2')).toBe(6);
    expect(await count('type=0')).toBe(10);
    expect(await count(`username=${alice.username}`)).toBe(6);
    expect(await count('username=old-name')).toBe(1);
    expect(await count('token_name=script')).toBe(1);
    expect(await count('model_name=gpt-4o-mini')).toBe(1);
    expect(await count('channel=2')).toBe(1);
    expect(await count(`start_timestamp=${day + 20}&end_timestamp=${day + 3605}`)).toBe(7);
    expect(await count(`start_timestamp=${day + 86_400}`)).toBe(1);
    expect(await count(`username=${encodeURIComponent("' or '1'='1")}`)).toBe(0);
  });

  test('bad filters are refused, not coerced', async () => {
    for (const query of [
      'start_timestamp=abc',
      'end_timestamp=1.5',
      'start_timestamp=-1',
      'p=x',
      'type=two',
      'channel=-1',
      `username=${'x'.repeat(200)}`,
    ]) {
      const response = await admin.client.get(`/api/log/?${query}`);
      expect(response.body.success, query).toBe(false);
      expect(response.body.message, query).toMatch(/^无效的参数/);
    }
    expect((await alice.client.get('/api/log/self/stat?start_timestamp=1e9')).body.success).toBe(false);
  });

  test('self views show only the caller’s logs, by user id', async () => {
    const own: Log[] = await get(alice.client, '/api/log/self/');
    expect(own).toHaveLength(7);
    expect(own.every((log) => log.user_id === alice.id)).toBe(true);
    expect(own.some((log) => log.quota === 3)).toBe(true);
    expect(await get(alice.client, `/api/log/self/?username=${bob.username}`)).toHaveLength(7);
    expect(await get(alice.client, '/api/log/self/?type=1')).toHaveLength(1);
    expect(await get(alice.client, '/api/log/self/?model_name=gpt-4o-mini')).toHaveLength(1);
    expect(await get(bob.client, '/api/log/self/')).toHaveLength(3);
  });

  test('search matches a type or a content prefix, literally', async () => {
    const byType: Log[] = await get(admin.client, '/api/log/search?keyword=4');
    expect(byType.map((log) => log.type)).toEqual([4, 4]);
    const byContent: Log[] = await get(admin.client, `/api/log/search?keyword=${encodeURIComponent('通过兑换码')}`);
    expect(byContent).toHaveLength(1);
    expect(await get(admin.client, `/api/log/search?keyword=${encodeURIComponent('100%')}`)).toHaveLength(1);
    expect(await get(admin.client, `/api/log/search?keyword=${encodeURIComponent('_00')}`)).toHaveLength(0);
    expect(
      await get(admin.client, `/api/log/search?keyword=${encodeURIComponent("'; delete from logs; --")}`),
    ).toHaveLength(0);
    expect(await get(alice.client, '/api/log/self/search?keyword=4')).toHaveLength(0);
    expect(await get(bob.client, '/api/log/self/search?keyword=4')).toHaveLength(2);
    expect(await get(alice.client, `/api/log/self/search?keyword=${encodeURIComponent('倍率')}`)).toHaveLength(5);
    expect((await admin.client.get(`/api/log/search?keyword=${'x'.repeat(101)}`)).body.success).toBe(false);
  });

  test('stat sums consume quota with the same filters; self stat by user id', async () => {
    expect(await get(admin.client, '/api/log/stat')).toEqual({ quota: 1169, token: 6 * 15 + 135 });
    expect((await get(admin.client, '/api/log/stat?type=1')).quota).toBe(1169);
    expect((await get(admin.client, `/api/log/stat?username=${bob.username}`)).quota).toBe(9);
    expect((await get(admin.client, '/api/log/stat?channel=2')).quota).toBe(50);
    expect((await get(admin.client, `/api/log/stat?end_timestamp=${day + 20}`)).quota).toBe(116);
    expect((await get(admin.client, '/api/log/stat?model_name=none')).quota).toBe(0);
    expect((await get(alice.client, '/api/log/self/stat?type=2')).quota).toBe(1160);
    expect((await get(alice.client, '/api/log/self/stat?token_name=script')).quota).toBe(7);
    expect((await get(bob.client, '/api/log/self/stat')).quota).toBe(9);
  });

  test('the usage series buckets by hour or day, per model, on every engine alike', async () => {
    const range = `start_timestamp=${day}&end_timestamp=${day + 2 * 86_400}`;
    const hourly = await get(alice.client, `/api/log/self/series?${range}&granularity=hour`);
    expect(hourly).toEqual([
      { time: day, model_name: 'gpt-4o', quota: 103, requests: 2, prompt_tokens: 20, completion_tokens: 10 },
      { time: day, model_name: 'gpt-4o-mini', quota: 7, requests: 1, prompt_tokens: 10, completion_tokens: 5 },
      { time: day + 3600, model_name: 'gpt-4o', quota: 50, requests: 1, prompt_tokens: 10, completion_tokens: 5 },
      { time: day + 86_400, model_name: 'gpt-4o', quota: 1000, requests: 1, prompt_tokens: 100, completion_tokens: 50 },
    ]);
    const daily = await get(admin.client, `/api/log/series?${range}&granularity=day`);
    expect(daily).toEqual([
      { time: day, model_name: 'gpt-4o', quota: 162, requests: 4, prompt_tokens: 40, completion_tokens: 20 },
      { time: day, model_name: 'gpt-4o-mini', quota: 7, requests: 1, prompt_tokens: 10, completion_tokens: 5 },
      { time: day + 86_400, model_name: 'gpt-4o', quota: 1000, requests: 1, prompt_tokens: 100, completion_tokens: 50 },
    ]);
    // In UTC+8 local midnight is 8 hours earlier, so the first day's logs move into the bucket before it.
    const shifted = await get(
      admin.client,
      `/api/log/series?${range}&granularity=day&utc_offset=28800&model_name=gpt-4o`,
    );
    expect(shifted.map((point: { time: number; quota: number }) => [point.time, point.quota])).toEqual([
      [day - 8 * 3600 + 86_400 - 86_400, 162],
      [day - 8 * 3600 + 86_400, 1000],
    ]);
    expect((await get(admin.client, `/api/log/series?${range}&username=${bob.username}`))[0]).toMatchObject({
      quota: 9,
      requests: 1,
    });
    expect(await get(bob.client, `/api/log/self/series?${range}&granularity=day`)).toHaveLength(1);
    expect(await get(alice.client, '/api/log/self/series')).toEqual([]);
    expect((await alice.client.get('/api/log/self/series?granularity=minute')).body.success).toBe(false);
    const tooWide = await alice.client.get(
      `/api/log/self/series?start_timestamp=1&end_timestamp=${day}&granularity=hour`,
    );
    expect(tooWide.body.success).toBe(false);
    expect(tooWide.body.message).toContain('时间范围过大');
  });

  test('deleting old logs needs a timestamp and answers the count', async () => {
    expect((await admin.client.delete('/api/log/')).body).toEqual({
      success: false,
      message: 'target timestamp is required',
    });
    expect((await admin.client.delete('/api/log/?target_timestamp=0')).body.message).toBe(
      'target timestamp is required',
    );
    expect((await admin.client.delete('/api/log/?target_timestamp=abc')).body.success).toBe(false);
    expect((await admin.client.delete(`/api/log/?target_timestamp=${day + 20}`)).body).toEqual({
      success: true,
      message: '',
      data: 2,
    });
    expect((await admin.client.delete(`/api/log/?target_timestamp=${day + 20}`)).body.data).toBe(0);
    expect(await get(admin.client, '/api/log/')).toHaveLength(8);
    const root = await server.rootClient();
    expect((await root.delete(`/api/log/?target_timestamp=${day + 86_400}`)).body.data).toBe(7);
  });
});
