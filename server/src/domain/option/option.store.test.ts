import type { Kysely } from 'kysely';
import { describe, expect, test } from 'vitest';
import type { Database } from '../../db/tables.js';
import { OptionStore } from './option.store.js';

/** An options table whose reads the test answers itself, in any order. */
class HeldOptions {
  rows = new Map<string, string>();
  readonly reads: { answer: () => void; answered: boolean }[] = [];

  db(): Kysely<Database> {
    const execute = () =>
      new Promise<{ key: string; value: string }[]>((resolve) => {
        const rows = [...this.rows].map(([key, value]) => ({ key, value }));
        const read = { answered: false, answer: () => ((read.answered = true), resolve(rows)) };
        this.reads.push(read);
      });
    return { selectFrom: () => ({ select: () => ({ execute }) }) } as unknown as Kysely<Database>;
  }
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('option store reloads', () => {
  test('a reload that read the table before a local write does not undo it', async () => {
    const table = new HeldOptions();
    const store = new OptionStore();
    table.rows.set('RetryTimes', '0');
    const periodic = store.reload(table.db());
    await flush();
    // The option API saves and applies while that read is out.
    table.rows.set('RetryTimes', '3');
    store.apply('RetryTimes', '3');
    table.reads[0]!.answer();
    await periodic;
    expect(store.number('RetryTimes')).toBe(3);
  });

  test('reloads run one at a time, so a newer read is never replaced by an older one', async () => {
    const table = new HeldOptions();
    const store = new OptionStore();
    table.rows.set('SystemName', 'old');
    const first = store.reload(table.db());
    await flush();
    // Another node saved a value and announced it: the reload asked for now must read after that.
    table.rows.set('SystemName', 'new');
    const second = store.reload(table.db());
    const third = store.reload(table.db());
    await flush();
    // Bounded: answer the newest read out first, as a faster connection would.
    for (let round = 0; round < 4 && table.reads.some((read) => !read.answered); round++) {
      for (const read of table.reads.filter((pending) => !pending.answered).reverse()) {
        read.answer();
        await flush();
      }
    }
    await Promise.all([first, second, third]);
    expect(store.string('SystemName')).toBe('new');
    expect(table.reads).toHaveLength(2);
  });
});
