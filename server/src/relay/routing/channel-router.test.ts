import pino from 'pino';
import { describe, expect, test } from 'vitest';
import type { AppContext } from '../../context.js';
import type { ChannelRow } from '../../db/tables.js';
import { ChannelRouter } from './channel-router.js';

/** A channels table whose reads the test answers one by one, in any order. */
class HeldTable {
  rows: Partial<ChannelRow>[] = [];
  readonly reads: { rowsAtStart: Partial<ChannelRow>[]; answer: () => void }[] = [];

  context(): AppContext {
    const execute = () =>
      new Promise<Partial<ChannelRow>[]>((resolve) => {
        const rowsAtStart = this.rows.map((row) => ({ ...row }));
        this.reads.push({ rowsAtStart, answer: () => resolve(rowsAtStart) });
      });
    const db = { selectFrom: () => ({ selectAll: () => ({ execute }) }) };
    return { database: { db }, logger: pino({ level: 'silent' }) } as unknown as AppContext;
  }
}

const channel = (id: number, status: number): Partial<ChannelRow> => ({
  id,
  type: 1,
  status,
  name: `c${id}`,
  models: 'm',
  group: 'default',
  config: '{}',
  weight: 0,
  priority: 0,
});

const done = () => undefined;
const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('channel router reloads', () => {
  test('a reload asked for after a write waits for the one under way and then reads again', async () => {
    const table = new HeldTable();
    const router = new ChannelRouter(table.context());
    table.rows = [channel(1, 1)];
    const before = router.reload();
    await flush();
    expect(table.reads).toHaveLength(1);

    // The write lands while the first read is out; the reload asked for now must not be that read.
    table.rows = [channel(1, 2)];
    const after = router.reload();
    const alsoAfter = router.reload();
    await flush();
    expect(table.reads).toHaveLength(1);

    table.reads[0]!.answer();
    await before;
    expect(router.select('default', 'm', new Set())?.row.id).toBe(1);
    await flush();
    expect(table.reads).toHaveLength(2);
    table.reads[1]!.answer();
    await Promise.all([after, alsoAfter]);
    expect(router.select('default', 'm', new Set())).toBeUndefined();
    expect(router.channel(1)?.row.status).toBe(2);
    // A burst shares one queued read.
    expect(table.reads).toHaveLength(2);
  });

  test('an old read finishing last cannot bring back a channel a newer snapshot disabled', async () => {
    const table = new HeldTable();
    const router = new ChannelRouter(table.context());
    table.rows = [channel(1, 1)];
    const periodic = router.scheduleReload(0);
    await flush();
    table.rows = [channel(1, 2)];
    const write = router.reload();
    await flush();
    // Answer the newest read out first, the way a slower connection would (bounded: two reads at most).
    for (let round = 0; round < 4 && table.reads.some((read) => read.answer !== done); round++) {
      const pending = table.reads.filter((read) => read.answer !== done).reverse();
      for (const read of pending) {
        read.answer();
        read.answer = done;
        await flush();
      }
    }
    await Promise.all([periodic, write]);
    await router.settled();
    expect(router.select('default', 'm', new Set())).toBeUndefined();
    expect(router.channel(1)?.row.status).toBe(2);
  });

  test('a failed read rejects the reload that waits for it and keeps the last snapshot', async () => {
    const router = new ChannelRouter({
      database: {
        db: {
          selectFrom: () => ({ selectAll: () => ({ execute: () => Promise.reject(new Error('connection lost')) }) }),
        },
      },
      logger: pino({ level: 'silent' }),
    } as unknown as AppContext);
    await expect(router.reload()).rejects.toThrow('connection lost');
    await expect(router.scheduleReload(0)).resolves.toBeUndefined();
    expect(router.modelsOfGroup('default')).toEqual([]);
  });
});
