import { get, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../../../test/engines.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';
import { createTestUser, type TestUser } from '../../../../test/test-users.js';
import { indexExists } from '../../../db/schema-helpers.js';
import { exportBatchSize, exportEvents, type LogExportOutcome } from '../../../domain/log/log-export.js';
import { insertLogRows, type LogRow } from '../../../domain/log/log.writer.js';

const day = 1_700_006_400;
const rowCount = 1234; // more than one export batch (1,000)
const tricky = ['=HYPERLINK("http://x")', '+1', '-2', '@sum', '\tx', 'a, "b"\nc', '倍率：0.25'];

/** Parses RFC 4180 CSV (quoted cells, doubled quotes, CRLF) back into rows of cells. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  const endCell = () => {
    cells.push(cell);
    cell = '';
  };
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    const next = text[index + 1];
    if (quoted && char === '"' && next === '"') {
      cell += '"';
      index++;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (quoted) {
      cell += char;
    } else if (char === ',') {
      endCell();
    } else if (char === '\r' && next === '\n') {
      endCell();
      rows.push(cells);
      cells = [];
      index++;
    } else {
      cell += char;
    }
  }
  if (cell !== '' || cells.length > 0) {
    endCell();
    rows.push(cells);
  }
  return rows;
}

describe.each(await availableEngines())('log keyset pages and CSV export on $label', (engine) => {
  let server: TestServer;
  let admin: TestUser;
  let users: TestUser[];

  const row = (index: number): LogRow => {
    const user = users[index % 3]!;
    return {
      user_id: user.id,
      username: user.username,
      created_at: day + index * 37,
      type: index % 7 === 0 ? 1 : index % 11 === 0 ? 4 : 2,
      content: index % 9 === 0 ? tricky[(index / 9) % tricky.length]! : `row ${index}`,
      token_name: ['default', 'script', 'ci'][index % 3 === 0 ? 0 : (index >> 2) % 3]!,
      model_name: ['gpt-4o', 'gpt-4o-mini', 'claude'][(index >> 1) % 3]!,
      quota: index * 10 - 50,
      prompt_tokens: index,
      completion_tokens: 2 * index,
      channel_id: 1 + (index % 5),
      request_id: `req-${index}`,
      elapsed_time: index + 1,
      is_stream: index % 2,
      system_prompt_reset: 0,
      other: null,
    };
  };

  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await createTestUser(server, { role: 10 });
    users = [await createTestUser(server), await createTestUser(server), await createTestUser(server)];
    const { db, dialect } = server.context.logDatabase;
    const rows = Array.from({ length: rowCount }, (_, index) => row(index));
    for (let from = 0; from < rows.length; from += 500) await insertLogRows(db, dialect, rows.slice(from, from + 500));
  });
  afterAll(async () => server?.close());

  type Log = { id: number; request_id: string; user_id: number };
  const page = async (client: TestUser['client'], path: string): Promise<Log[]> => {
    const response = await client.get(path);
    expect(response.body.success, `${path}: ${response.body.message}`).toBe(true);
    expect(Array.isArray(response.body.data)).toBe(true);
    return response.body.data;
  };
  const ids = (logs: Log[]) => logs.map((log) => log.id);

  /** Walks every page by `p`, by `before_id` downwards and by `after_id` back up; all three must agree. */
  async function walk(client: TestUser['client'], base: string, filters: string): Promise<number[]> {
    const byOffset: number[][] = [];
    for (let p = 0; p < 200; p++) {
      const logs = await page(client, `${base}?${filters}&p=${p}`);
      if (logs.length === 0) break;
      byOffset.push(ids(logs));
      if (logs.length < 10) break;
    }
    const byCursor: number[][] = [];
    let cursor = '';
    for (let step = 0; step < 200; step++) {
      const logs = await page(client, `${base}?${filters}${cursor}`);
      if (logs.length === 0) break;
      byCursor.push(ids(logs));
      if (logs.length < 10) break;
      cursor = `&before_id=${logs[logs.length - 1]!.id}`;
    }
    expect(byCursor, filters).toEqual(byOffset);
    for (let index = byCursor.length - 1; index > 0; index--) {
      const newer = await page(client, `${base}?${filters}&after_id=${byCursor[index]![0]}`);
      expect(ids(newer), `${filters} back to page ${index - 1}`).toEqual(byCursor[index - 1]);
    }
    const all = byOffset.flat();
    expect([...all].sort((a, b) => b - a)).toEqual(all);
    return all;
  }

  test('the migration adds the keyset indexes', async () => {
    const { db, dialect } = server.context.logDatabase;
    for (const name of ['idx_logs_type_id', 'idx_logs_model_name_id', 'idx_logs_user_id_id'])
      expect(await indexExists(db, dialect, 'logs', name), name).toBe(true);
    const postgres = dialect === 'postgres';
    expect(await indexExists(db, dialect, 'logs', 'idx_logs_token_name_id')).toBe(postgres);
    expect(await indexExists(db, dialect, 'logs', 'idx_logs_token_name')).toBe(!postgres);
  });

  test('keyset pages equal offset pages, both ways, under every filter', { timeout: 120_000 }, async () => {
    const [alice, bob] = users;
    const combos = [
      '',
      'type=1',
      'type=4&channel=3',
      'token_name=script&model_name=gpt-4o',
      `username=${bob!.username}&type=2`,
      'channel=2',
      `start_timestamp=${day + 200 * 37}&end_timestamp=${day + 500 * 37}`,
      'model_name=claude&type=2',
    ];
    const counts: Record<string, number> = {};
    for (const filters of combos) counts[filters] = (await walk(admin.client, '/api/log/', filters)).length;
    expect(counts['']).toBe(rowCount);
    expect(counts['type=1']).toBe(Math.ceil(rowCount / 7));
    expect(counts[`start_timestamp=${day + 200 * 37}&end_timestamp=${day + 500 * 37}`]).toBe(301);
    for (const filters of ['', 'type=2&model_name=gpt-4o', 'model_name=gpt-4o-mini'])
      expect((await walk(alice!.client, '/api/log/self/', filters)).length).toBeGreaterThan(0);
    // The self view is by user id, whatever username is sent.
    const own = await walk(alice!.client, '/api/log/self/', `username=${bob!.username}`);
    expect(own.length).toBe(Math.ceil(rowCount / 3));
  });

  test('a cursor wins over p; both cursors at once or a bad one are refused', async () => {
    const first = await page(admin.client, '/api/log/');
    const second = await page(admin.client, `/api/log/?p=7&before_id=${first[9]!.id}`);
    expect(ids(second)).toEqual(ids(await page(admin.client, '/api/log/?p=1')));
    for (const query of ['before_id=1&after_id=2', 'before_id=0', 'before_id=x', 'after_id=-3']) {
      const response = await admin.client.get(`/api/log/?${query}`);
      expect(response.body.success, query).toBe(false);
    }
  });

  /** The export as the browser gets it: the raw bytes, decoded keeping the byte order mark. */
  const download = async (user: TestUser, path: string, language = 'zh-CN') => {
    const response = await fetch(server.url + path, {
      headers: { authorization: user.accessToken, 'accept-language': language },
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    expect(response.status, text.slice(0, 200)).toBe(200);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    return { response, text };
  };

  test('the admin CSV holds the same rows in the same order as the list, escaped', async () => {
    const filters = 'token_name=default&type=0';
    const listed = await walk(admin.client, '/api/log/', filters);
    const { response, text } = await download(admin, `/api/log/export?${filters}`);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="logs-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const [heading, ...rows] = parseCsv(text.slice(1));
    expect(heading).toHaveLength(14);
    expect(heading![9]).toBe('渠道');
    const byRequest = new Map(Array.from({ length: rowCount }, (_, index) => [`req-${index}`, row(index)]));
    expect(rows).toHaveLength(listed.length);
    const all = await (async () => {
      const logs: Log[] = [];
      let cursor = '';
      for (let step = 0; step < 200; step++) {
        const batch = await page(admin.client, `/api/log/?${filters}${cursor}`);
        logs.push(...batch);
        if (batch.length < 10) break;
        cursor = `&before_id=${batch[batch.length - 1]!.id}`;
      }
      return logs;
    })();
    expect(ids(all)).toEqual(listed);
    expect(rows.map((cells) => cells[10])).toEqual(all.map((log) => log.request_id));
    for (const cells of rows) {
      const source = byRequest.get(cells[10]!)!;
      expect(cells[0]).toBe(new Date(source.created_at * 1000).toISOString().replace('.000Z', 'Z'));
      expect(cells[2]).toBe(source.username);
      expect(cells[7]).toBe(String(source.quota));
      expect(cells[8]).toBe(String(Number((source.quota / 500_000).toFixed(6))));
      expect(cells[9]).toBe(String(source.channel_id));
      const content = /^[=+\-@\t\r]/.test(source.content) ? `'${source.content}` : source.content;
      expect(cells[13]).toBe(content);
    }
    // Each dangerous prefix is neutralised; the comma, quote and line break survive the round trip.
    const contents = rows.map((cells) => cells[13]);
    for (const value of tricky.filter((text) => /^[=+\-@\t]/.test(text)))
      if (contents.includes(`'${value}`)) expect(contents).not.toContain(value);
    expect(text).toContain('"\'=HYPERLINK(""http://x"")"');
  });

  test('the export covers every row in keyset batches, at the viewer offset, with the expected count', async () => {
    const { text } = await download(admin, '/api/log/export?utc_offset=28800');
    const rows = parseCsv(text.slice(1)).slice(1);
    expect(rows).toHaveLength(rowCount);
    expect(rows.at(-1)![10]).toBe('req-0');
    expect(rows.at(-1)![0]).toBe('2023-11-15T08:00:00+08:00');
    expect(new Set(rows.map((cells) => cells[10])).size).toBe(rowCount);
    const consume = await download(admin, '/api/log/export?type=2');
    const consumeRows = parseCsv(consume.text.slice(1)).slice(1);
    expect(consumeRows.length).toBeGreaterThan(500);
    expect(consume.response.headers.get('x-total-count')).toBe(String(consumeRows.length));
    // Every type: the rollups' consume count plus the other types counted on their index (issue 33).
    expect((await download(admin, '/api/log/export')).response.headers.get('x-total-count')).toBe(String(rowCount));
    const english = await download(admin, '/api/log/export?type=1', 'en');
    expect(english.text.slice(1, 40)).toMatch(/^time,type,username,token name,model/);
  });

  test('the user export holds only the user’s rows and no channel column; no session, no export', async () => {
    const alice = users[0]!;
    const { text } = await download(alice, `/api/log/self/export?username=${users[1]!.username}`);
    const [heading, ...rows] = parseCsv(text.slice(1));
    expect(heading).toHaveLength(13);
    expect(heading).not.toContain('渠道');
    expect(rows).toHaveLength(Math.ceil(rowCount / 3));
    expect(rows.every((cells) => cells[2] === alice.username && cells.length === 13)).toBe(true);
    expect((await server.client().get('/api/log/self/export')).status).toBe(401);
    expect((await server.client().get('/api/log/export')).status).toBe(401);
    const refused = await alice.client.get('/api/log/export');
    expect(refused.body.success).toBe(false);
    expect(refused.text).not.toContain('req-');
  });

  test('a client that goes away stops the export; one export at a time per user', { timeout: 60_000 }, async () => {
    const dave = await createTestUser(server);
    const { db, dialect } = server.context.logDatabase;
    const big = 'x'.repeat(4000);
    const rows = Array.from({ length: 8000 }, (_, index) => ({
      ...row(index),
      user_id: dave.id,
      username: dave.username,
      content: big,
    }));
    for (let from = 0; from < rows.length; from += 500) await insertLogRows(db, dialect, rows.slice(from, from + 500));

    // Dave's export is the one that reads at least a full batch (the other export below reads fewer rows).
    let onEnd: (outcome: LogExportOutcome) => void = () => {};
    const ended = new Promise<LogExportOutcome>((resolve) => {
      onEnd = (outcome) => {
        if (outcome.rows >= exportBatchSize) resolve(outcome);
      };
      exportEvents.on('export-end', onEnd);
    });
    // A plain socket of its own (no keep-alive pool), read once, then cut.
    const request = get(`${server.url}/api/log/self/export`, {
      headers: { authorization: dave.accessToken },
      agent: false,
    });
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      request.once('response', resolve);
      request.once('error', reject);
    });
    expect(response.statusCode).toBe(200);
    const first = await new Promise<Buffer>((resolve) => response.once('data', resolve));
    expect(first.length).toBeGreaterThan(0);
    response.pause();

    // While it runs, a second export by the same user is refused, another user's is not.
    const second = await dave.client.get('/api/log/self/export');
    expect(second.status).toBe(429);
    expect(second.body.success).toBe(false);
    expect((await users[2]!.client.get('/api/log/self/export?type=1')).status).toBe(200);

    request.destroy();
    const outcome = await Promise.race([
      ended,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the export did not stop')), 20_000)),
    ]);
    exportEvents.off('export-end', onEnd);
    expect(outcome.completed).toBe(false);
    expect(outcome.rows).toBeLessThan(rows.length);

    // The slot is free again once the server has noticed.
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
      status = (await dave.client.get('/api/log/self/export?type=1')).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
  });
});
