import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../../test/engines.js';
import { logRow } from '../../../test/log-rows.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { createTestUser, type TestUser } from '../../../test/test-users.js';
import type { NewLog } from '../../db/tables.js';
import { LogType } from './log.constants.js';

const start = 1_700_006_400;
const rowCount = 95;

/**
 * Row n is written n-th (its id grows with n) but dated out of order, as after an import or with nodes whose
 * clocks disagree: every third row is two hours late, and runs of rows share a second.
 */
const createdAt = (n: number) => start + Math.floor(n / 4) * 60 - (n % 3 === 0 ? 7200 : 0);
const log = (n: number): NewLog =>
  logRow({ created_at: createdAt(n), type: LogType.Consume, content: `row ${n}`, request_id: `req-${n}` });

describe.each(await availableEngines())('a time-bounded log list on $label', (engine) => {
  let server: TestServer;
  let admin: TestUser;
  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await createTestUser(server, { role: 10 });
    const { db } = server.context.logDatabase;
    for (let n = 0; n < rowCount; n++) await db.insertInto('logs').values(log(n)).execute();
  });
  afterAll(async () => server?.close());

  type Log = { id: number; created_at: number; request_id: string };
  const page = async (path: string): Promise<Log[]> => {
    const response = await admin.client.get(path);
    expect(response.body.success, `${path}: ${response.body.message}`).toBe(true);
    return response.body.data;
  };

  test('runs newest first by time, pages alike by p and by cursor both ways, and the CSV follows it', async () => {
    const from = start - 3600;
    const to = start + 20 * 60;
    const filters = `start_timestamp=${from}&end_timestamp=${to}`;
    const expected = Array.from({ length: rowCount }, (_, n) => n)
      .filter((n) => createdAt(n) >= from && createdAt(n) <= to)
      .sort((a, b) => createdAt(b) - createdAt(a) || b - a)
      .map((n) => `req-${n}`);
    expect(expected.length).toBeGreaterThan(30);

    const byOffset: Log[][] = [];
    for (let p = 0; p < 20; p++) {
      const logs = await page(`/api/log/?${filters}&p=${p}`);
      if (logs.length === 0) break;
      byOffset.push(logs);
    }
    const byCursor: Log[][] = [];
    let cursor = '';
    for (let step = 0; step < 20; step++) {
      const logs = await page(`/api/log/?${filters}${cursor}`);
      if (logs.length === 0) break;
      byCursor.push(logs);
      cursor = `&before_id=${logs.at(-1)!.id}`;
    }
    const requests = (pages: Log[][]) => pages.flat().map((log) => log.request_id);
    expect(requests(byOffset)).toEqual(expected);
    expect(requests(byCursor)).toEqual(expected);
    for (let index = byCursor.length - 1; index > 0; index--) {
      const newer = await page(`/api/log/?${filters}&after_id=${byCursor[index]![0]!.id}`);
      expect(newer.map((log) => log.request_id)).toEqual(byCursor[index - 1]!.map((log) => log.request_id));
    }

    const response = await fetch(`${server.url}/api/log/export?${filters}`, {
      headers: { authorization: admin.accessToken, 'accept-language': 'en' },
    });
    const lines = (await response.text()).trim().split('\r\n').slice(1);
    expect(lines.map((line) => line.split(',')[10])).toEqual(expected);
  });

  test('a cursor row deleted since still pages on from where it was', async () => {
    const filters = `start_timestamp=${start - 7200}&end_timestamp=${start + 3600}`;
    // Row 2 shares its second with row 1, written just before it, where the list picks up again.
    const listed = (await page(`/api/log/?${filters}&p=0`)).concat(await page(`/api/log/?${filters}&p=1`));
    const all = [...listed];
    for (let p = 2; all.length === p * 10; p++) all.push(...(await page(`/api/log/?${filters}&p=${p}`)));
    const cursor = all.find((log) => log.request_id === 'req-2')!.id;
    const after = await page(`/api/log/?${filters}&before_id=${cursor}`);
    expect(after.length).toBeGreaterThan(0);
    await server.context.logDatabase.db.deleteFrom('logs').where('id', '=', cursor).execute();
    expect(await page(`/api/log/?${filters}&before_id=${cursor}`)).toEqual(after);
  });
});
