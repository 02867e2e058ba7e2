import pino from 'pino';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { AppContext } from '../../context.js';
import type { ChannelRow } from '../../db/tables.js';
import { ChannelRouter } from './channel-router.js';

/** A channels table whose reads the test answers one by one, in any order. */
class HeldTable {
  rows: Partial<ChannelRow>[] = [];
  readonly reads: { rowsAtStart: Partial<ChannelRow>[]; ids?: number[]; answer: () => void }[] = [];

  context(): AppContext {
    const execute = (ids?: number[]) =>
      new Promise<Partial<ChannelRow>[]>((resolve) => {
        const rowsAtStart = this.rows.filter((row) => !ids || ids.includes(row.id!)).map((row) => ({ ...row }));
        this.reads.push({ rowsAtStart, ids, answer: () => resolve(rowsAtStart) });
      });
    const where = (_column: 'id', _operator: 'in', ids: number[]) => ({ execute: () => execute(ids) });
    const db = { selectFrom: () => ({ selectAll: () => ({ execute: () => execute(), where }) }) };
    return { database: { db }, logger: pino({ level: 'silent' }) } as unknown as AppContext;
  }
}

const channel = (id: number, status: number, fields: Partial<ChannelRow> = {}): Partial<ChannelRow> => ({
  id,
  type: 1,
  status,
  name: `c${id}`,
  models: 'm',
  group: 'default',
  config: '{}',
  weight: 0,
  priority: 0,
  ...fields,
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

/** Answers every read as it comes (bounded), until the router has nothing left to read. */
async function answerAll(table: HeldTable, router: ChannelRouter): Promise<void> {
  for (let round = 0; round < 10; round++) {
    await flush();
    for (const read of table.reads) read.answer();
  }
  await router.settled();
}

describe('channel writes move only their own routes', () => {
  test('a refresh reads only the named channels, and moves, adds and drops them alone', async () => {
    const table = new HeldTable();
    const router = new ChannelRouter(table.context());
    table.rows = [channel(1, 1), channel(2, 1), channel(3, 1, { models: 'other' })];
    const loaded = router.reload();
    await answerAll(table, router);
    await loaded;

    // Channel 2 now serves another model at a higher priority, 3 is deleted, 4 is created.
    table.rows = [channel(1, 1), channel(2, 1, { models: 'other', priority: 5 }), channel(4, 1, { models: 'new' })];
    const refreshed = router.refresh([2, 3, 4]);
    await answerAll(table, router);
    await refreshed;

    expect(table.reads.at(-1)?.ids).toEqual([2, 3, 4]);
    expect(table.reads.at(-1)?.rowsAtStart.map((row) => row.id)).toEqual([2, 4]);
    expect(router.select('default', 'm', new Set())?.row.id).toBe(1);
    expect(router.select('default', 'm', new Set([1]))).toBeUndefined();
    expect(router.select('default', 'other', new Set())?.row.id).toBe(2);
    expect(router.channel(3)).toBeUndefined();
    expect(router.select('default', 'new', new Set())?.row.id).toBe(4);
    expect(router.modelsOfGroup('default')).toEqual(['m', 'new', 'other']);
    expect(router.serving('default', 'm').map((routed) => routed.row.id)).toEqual([1]);
    expect(router.serving('default', 'gone')).toEqual([]);
  });

  test('a refresh asked for while a read is out waits for it and reads again, and requests meanwhile join it', async () => {
    const table = new HeldTable();
    const router = new ChannelRouter(table.context());
    table.rows = [channel(1, 1)];
    const full = router.reload();
    await flush();
    table.rows = [channel(1, 2)];
    const first = router.refresh([1]);
    const joined = router.follow('1');
    await flush();
    expect(table.reads).toHaveLength(1);
    table.reads[0]!.answer();
    await full;
    await flush();
    expect(table.reads).toHaveLength(2);
    table.reads[1]!.answer();
    await Promise.all([first, joined]);
    expect(router.select('default', 'm', new Set())).toBeUndefined();
    expect(router.channel(1)?.row.status).toBe(2);
  });

  test('a withdrawn channel leaves its routes at once and comes back only with a read that finds it enabled', async () => {
    const table = new HeldTable();
    const router = new ChannelRouter(table.context());
    table.rows = [channel(1, 1), channel(2, 1)];
    const loaded = router.reload();
    await answerAll(table, router);
    await loaded;
    router.withdraw(1);
    expect(router.select('default', 'm', new Set([2]))).toBeUndefined();
    expect(router.channel(1)?.row.id).toBe(1);
    const refreshed = router.refresh([1]);
    await answerAll(table, router);
    await refreshed;
    expect(router.select('default', 'm', new Set([2]))?.row.id).toBe(1);
  });
});

describe('a draw within a tier', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  async function routerOf(rows: Partial<ChannelRow>[]): Promise<ChannelRouter> {
    const table = new HeldTable();
    const router = new ChannelRouter(table.context());
    table.rows = rows;
    const loaded = router.reload();
    await answerAll(table, router);
    await loaded;
    return router;
  }

  test('lands on each channel in proportion to its weight (0 counting as 1)', async () => {
    const router = await routerOf([channel(1, 1), channel(2, 1, { weight: 3 }), channel(3, 1, { weight: 4 })]);
    // Weights 1, 3, 4: the draw's point over 8 falls in [0, 1), [1, 4) or [4, 8).
    const landed = (random: number) => {
      vi.spyOn(Math, 'random').mockReturnValue(random);
      return router.select('default', 'm', new Set())?.row.id;
    };
    expect([0, 0.124, 0.125, 0.499, 0.5, 0.999].map(landed)).toEqual([1, 1, 2, 2, 3, 3]);
    // A retry that excludes one draws among the others by the same weights: 1 and 4 over 5.
    vi.spyOn(Math, 'random').mockReturnValue(0.19);
    expect(router.select('default', 'm', new Set([2]))?.row.id).toBe(1);
    vi.spyOn(Math, 'random').mockReturnValue(0.21);
    expect(router.select('default', 'm', new Set([2]))?.row.id).toBe(3);
  });

  test('keeps the favourite of its tier, but never over a higher tier', async () => {
    const router = await routerOf([channel(1, 1, { priority: 2 }), channel(2, 1), channel(3, 1)]);
    expect(router.select('default', 'm', new Set(), 3)?.row.id).toBe(1);
    expect(router.select('default', 'm', new Set([1]), 3)?.row.id).toBe(3);
    expect(router.select('default', 'm', new Set([1, 3]), 3)?.row.id).toBe(2);
    expect(router.select('default', 'm', new Set([1, 2, 3]), 3)).toBeUndefined();
  });
});
