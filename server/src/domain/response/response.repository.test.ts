import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../../test/engines.js';
import { freshDatabase, type FreshDatabase } from '../../../test/test-server.js';
import { openDatabase, type DatabaseHandle } from '../../db/connect.js';
import { migrateToLatest } from '../../db/migrate.js';
import { isAppError } from '../../lib/errors.js';
import { responseRetentionSeconds } from './response.constants.js';
import {
  conversationAfterOrThrow,
  deleteExpiredResponses,
  deleteResponseOfUser,
  findResponseOfUser,
  inputItemsPage,
  saveResponse,
  type NewStoredResponse,
} from './response.repository.js';

const now = 1_800_000_000;
const day = 86_400;

const userMessage = (text: string, id?: string) => ({
  type: 'message',
  role: 'user',
  content: [{ type: 'input_text', text }],
  ...(id ? { id } : {}),
});

const stored = (id: string, overrides: Partial<NewStoredResponse> = {}): NewStoredResponse => ({
  id,
  userId: 1,
  tokenId: 7,
  model: 'gpt-4.1',
  status: 'completed',
  createdAt: now,
  inputItems: [userMessage('hello')],
  outputItems: [
    {
      type: 'message',
      id: 'msg_1',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'Hi!', annotations: [] }],
    },
  ],
  usage: { input_tokens: 5, output_tokens: 2, total_tokens: 7 },
  settings: { instructions: 'Be brief.', tools: [] },
  ...overrides,
});

describe.each(await availableEngines())('stored Responses API responses on $label', (engine) => {
  let database: FreshDatabase;
  let handle: DatabaseHandle;
  const db = () => handle.db;

  beforeAll(async () => {
    database = await freshDatabase(engine);
    handle = await openDatabase(database.env.SQL_DSN ?? '', {
      sqlitePath: database.env.SQLITE_PATH ?? '',
      sqliteBusyTimeoutMs: 1000,
      maxConnections: 2,
    });
    await migrateToLatest(handle.db, handle.dialect);
  });
  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  test('a saved response reads back whole for its user only, until it expires', async () => {
    await saveResponse(db(), stored('resp_read'));
    const found = await findResponseOfUser(db(), 1, 'resp_read', now + 1);
    expect(found).toEqual({ ...stored('resp_read'), expiresAt: now + responseRetentionSeconds });
    expect(await findResponseOfUser(db(), 2, 'resp_read', now + 1)).toBeUndefined();
    expect(await findResponseOfUser(db(), 1, 'resp_read', now + responseRetentionSeconds)).toBeUndefined();
  });

  test('a long conversation fits (MySQL TEXT would cut it at 64 KiB)', async () => {
    const long = 'x'.repeat(200_000);
    await saveResponse(db(), stored('resp_long', { inputItems: [userMessage(long)] }));
    const found = await findResponseOfUser(db(), 1, 'resp_long', now);
    expect(found?.inputItems).toEqual([userMessage(long)]);
  });

  test('previous_response_id expands to the earlier conversation, its answer, then the new input', async () => {
    await saveResponse(db(), stored('resp_first'));
    const first = (await findResponseOfUser(db(), 1, 'resp_first', now))!;
    const second = await conversationAfterOrThrow(db(), 1, 'resp_first', [userMessage('and now?')], now);
    expect(second).toEqual([...first.inputItems, ...first.outputItems, userMessage('and now?')]);
    // A response continuing it stores the whole conversation, so a third turn needs one read too.
    await saveResponse(db(), stored('resp_second', { inputItems: second }));
    const third = await conversationAfterOrThrow(db(), 1, 'resp_second', [userMessage('more')], now);
    expect(third).toHaveLength(second.length + 2);
  });

  test('an unknown, foreign or expired previous_response_id is refused with a 400 naming it', async () => {
    await saveResponse(db(), stored('resp_old', { createdAt: now - responseRetentionSeconds - day }));
    for (const [userId, id] of [
      [1, 'resp_missing'],
      [2, 'resp_first'],
      [1, 'resp_old'],
    ] as const) {
      const refusal = await conversationAfterOrThrow(db(), userId, id, [], now).catch((error: unknown) => error);
      expect(isAppError(refusal) && refusal.status).toBe(400);
      expect((refusal as Error).message).toContain(id);
    }
  });

  test('saves of one turn go in one insert; a row that cannot be written fails alone', async () => {
    const statements: string[] = [];
    const counting = db().withPlugin({
      transformQuery: ({ node }) => {
        if (node.kind === 'InsertQueryNode') statements.push(node.kind);
        return node;
      },
      transformResult: async ({ result }) => result,
    });
    const ids = Array.from({ length: 150 }, (_, index) => `resp_batch_${index}`);
    await Promise.all(ids.map((id) => saveResponse(counting, stored(id))));
    // 150 rows, 100 a statement.
    expect(statements).toHaveLength(2);
    for (const id of ids) expect((await findResponseOfUser(db(), 1, id, now))?.id).toBe(id);

    statements.length = 0;
    const outcomes = await Promise.allSettled([
      saveResponse(counting, stored('resp_batch_new_1')),
      saveResponse(counting, stored('resp_batch_0')), // already there: the primary key refuses it
      saveResponse(counting, stored('resp_batch_new_2')),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    // The batch, then each row again on its own.
    expect(statements).toHaveLength(4);
    expect((await findResponseOfUser(db(), 1, 'resp_batch_new_1', now))?.id).toBe('resp_batch_new_1');
    expect((await findResponseOfUser(db(), 1, 'resp_batch_new_2', now))?.id).toBe('resp_batch_new_2');
  });

  test('deleting works once, and only for the owner', async () => {
    await saveResponse(db(), stored('resp_delete'));
    expect(await deleteResponseOfUser(db(), 2, 'resp_delete')).toBe(false);
    expect(await deleteResponseOfUser(db(), 1, 'resp_delete')).toBe(true);
    expect(await deleteResponseOfUser(db(), 1, 'resp_delete')).toBe(false);
    expect(await findResponseOfUser(db(), 1, 'resp_delete', now)).toBeUndefined();
  });

  test('the cleanup deletes expired rows a slice of expiry time at a time and keeps the others', async () => {
    await db().deleteFrom('responses').execute();
    const expired = Array.from({ length: 30 }, (_, index) =>
      stored(`resp_exp_${index}`, { createdAt: now - responseRetentionSeconds - index * 100 }),
    );
    for (const response of [...expired, stored('resp_keep')]) await saveResponse(db(), response);
    const slices: number[] = [];
    const options = {
      sliceWidth: 500,
      targetSliceMs: 0,
      onSlice: ({ slices: count }: { slices: number }) => void slices.push(count),
    };
    expect(await deleteExpiredResponses(db(), now, options)).toBe(expired.length);
    // 30 rows spread over 2,900 s of expiry, 500 s a slice.
    expect(slices.length).toBe(6);
    const left = await db().selectFrom('responses').select('id').execute();
    expect(left.map((row) => row.id)).toEqual(['resp_keep']);
    expect(await deleteExpiredResponses(db(), now)).toBe(0);
  });
});

describe('input item pages', () => {
  const response = {
    ...stored('resp_page'),
    expiresAt: now + responseRetentionSeconds,
    inputItems: ['a', 'b', 'c', 'd'].map((id) => userMessage(id, `msg_${id}`)),
  };
  const ids = (page: { items: Record<string, unknown>[] }) => page.items.map((item) => item.id);

  test('newest first by default, after a cursor, within the limit', () => {
    expect(ids(inputItemsPage(response))).toEqual(['msg_d', 'msg_c', 'msg_b', 'msg_a']);
    expect(inputItemsPage(response, { limit: 2 })).toMatchObject({ hasMore: true });
    expect(ids(inputItemsPage(response, { after: 'msg_c', limit: 1 }))).toEqual(['msg_b']);
    expect(ids(inputItemsPage(response, { order: 'asc', after: 'msg_b' }))).toEqual(['msg_c', 'msg_d']);
    expect(inputItemsPage(response, { order: 'asc', after: 'msg_b' }).hasMore).toBe(false);
  });
});
