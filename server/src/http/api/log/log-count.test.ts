import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../../../test/engines.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';
import { createTestUser, type TestUser } from '../../../../test/test-users.js';
import type { NewLog } from '../../../db/tables.js';
import { insertLogRows, type LogRow } from '../../../domain/log/log.writer.js';

const day = 1_700_006_400;

// Issue 33 point 4: the pager knows the total (rollups for consume logs, a capped count for the rest) and can
// jump to the oldest page; the CSV export sends the same count.
describe.each(await availableEngines())('log count and last page on $label', (engine) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;

  const log = (user: TestUser, createdAt: number, type: number): NewLog => ({
    user_id: user.id,
    username: user.username,
    created_at: createdAt,
    type,
    content: `log ${createdAt}`,
    token_name: 'default',
    model_name: 'gpt-4o',
    quota: type === 2 ? 10 : 0,
    prompt_tokens: 1,
    completion_tokens: 1,
    channel_id: 1,
    request_id: 'r',
    elapsed_time: 5,
    is_stream: 0,
    system_prompt_reset: 0,
  });

  beforeAll(async () => {
    server = await startTestServer({ engine });
    alice = await createTestUser(server);
    bob = await createTestUser(server);
    const rows: NewLog[] = [];
    // 23 consume logs of alice over two hours (rollups hold whole hours), 2 tests and 1 top-up; 4 of bob.
    for (let index = 0; index < 23; index += 1) rows.push(log(alice, day + index * 300, 2));
    rows.push(log(alice, day + 10, 5), log(alice, day + 20, 5), log(alice, day + 30, 1));
    for (let index = 0; index < 4; index += 1) rows.push(log(bob, day + 7200 + index, 2));
    await insertLogRows(server.context.logDatabase.db, server.context.logDatabase.dialect, rows as LogRow[]);
  });
  afterAll(async () => {
    await server?.close();
  });

  test('admins get the total of any filter, exact', async () => {
    const root = await server.rootClient();
    expect((await root.get('/api/log/count')).body).toEqual({
      success: true,
      message: '',
      data: { total: 30, exact: true },
    });
    expect((await root.get('/api/log/count?type=2')).body.data).toEqual({ total: 27, exact: true });
    expect((await root.get('/api/log/count?type=5')).body.data).toEqual({ total: 2, exact: true });
    const filtered = await root.get(`/api/log/count?username=${alice.username}&start_timestamp=${day + 15}`);
    expect(filtered.body.data).toEqual({ total: 22 + 2, exact: true });
  });

  test('users count only their own logs', async () => {
    expect((await bob.client.get('/api/log/self/count')).body.data).toEqual({ total: 4, exact: true });
    expect((await alice.client.get('/api/log/self/count?type=1')).body.data).toEqual({ total: 1, exact: true });
  });

  test('the oldest page comes newest first, and a bad flag is refused', async () => {
    const oldest = (await alice.client.get('/api/log/self/?last=1&type=2')).body.data as Array<{ created_at: number }>;
    expect(oldest.map((row) => row.created_at)).toEqual(
      Array.from({ length: 10 }, (_, index) => day + (9 - index) * 300),
    );
    const refused = await alice.client.get('/api/log/self/?last=yes');
    expect(refused.status).toBeLessThan(500);
    expect(refused.body.success).toBe(false);
    expect(typeof refused.body.message).toBe('string');
  });

  // Issue 33 point 5: the console can hide channel tests' logs (type 5); list, count and export agree.
  test('exclude_type leaves a type out of the list, the count and the export', async () => {
    const root = await server.rootClient();
    const listed = async (client: typeof root, path: string) => {
      const types: number[] = [];
      for (let page = 0; page < 5; page += 1) {
        const rows = (await client.get(`${path}&p=${page}`)).body.data as Array<{ type: number }>;
        types.push(...rows.map((row) => row.type));
        if (rows.length < 10) break;
      }
      return types;
    };
    const all = await listed(root, '/api/log/?exclude_type=0');
    expect(all.filter((type) => type === 5)).toHaveLength(2);
    const withoutTests = await listed(root, '/api/log/?exclude_type=5');
    expect(withoutTests).toHaveLength(28);
    expect(withoutTests).not.toContain(5);
    expect((await root.get('/api/log/count?exclude_type=5')).body.data).toEqual({ total: 28, exact: true });
    expect((await root.get('/api/log/count?exclude_type=2')).body.data).toEqual({ total: 3, exact: true });
    expect((await root.get('/api/log/count?type=5&exclude_type=5')).body.data).toEqual({ total: 0, exact: true });
    expect((await root.get('/api/log/?type=5&exclude_type=5')).body.data).toEqual([]);
    // The self views, time-bounded (the created_at path of the list) and counted alike.
    const own = await listed(alice.client, `/api/log/self/?exclude_type=5&start_timestamp=${day}`);
    expect(own).toHaveLength(24);
    expect(own).not.toContain(5);
    expect((await alice.client.get('/api/log/self/count?exclude_type=5')).body.data).toEqual({
      total: 24,
      exact: true,
    });
    const exported = await root.get('/api/log/export?exclude_type=5');
    expect(exported.headers.get('x-total-count')).toBe('28');
    expect(exported.text.trim().split('\n')).toHaveLength(29);
    const refused = await root.get('/api/log/count?exclude_type=-1');
    expect(refused.body.success).toBe(false);
    expect(typeof refused.body.message).toBe('string');
  });

  test('the CSV export sends the count it expects', async () => {
    const root = await server.rootClient();
    const answer = await root.get('/api/log/export?type=5');
    expect(answer.headers.get('x-total-count')).toBe('2');
    expect(answer.text.trim().split('\n')).toHaveLength(3);
  });
});
