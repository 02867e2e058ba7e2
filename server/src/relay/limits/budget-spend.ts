import { sql, type Kysely } from 'kysely';
import type { AppContext } from '../../context.js';

/** The table this module alone reads and writes (migration 2026_11_30_0200, decision 0031). */
interface BudgetSpendDatabase {
  limit_budget_spend: { scope: string; period: string; spent: number };
}

/** A budget counter's key, `<scope>:b:<period>` (limit-plan.ts), split into the table's two columns. */
function splitKey(key: string): { scope: string; period: string } {
  const at = key.indexOf(':b:');
  return { scope: key.slice(0, at), period: key.slice(at + 3) };
}

/** The charges are written every this long, and at shutdown. */
const flushMs = 1000;

/**
 * What each budget has spent, kept in the database so a restart of every node or a Redis flush does not
 * forget it: this node adds its settled charges to `limit_budget_spend` once a second (one upsert per budget
 * that spent), and a counter that Redis (or this node's memory) lacks is rebuilt from it.
 */
export class BudgetSpend {
  /** Charges settled on this node and not yet written, by budget key. */
  private readonly pending = new Map<string, number>();
  private readonly db: Kysely<BudgetSpendDatabase>;
  private flushing: Promise<void> | undefined;

  constructor(private readonly context: AppContext) {
    this.db = context.database.db as unknown as Kysely<BudgetSpendDatabase>;
    const timer = setInterval(() => void this.flush(), flushMs);
    timer.unref();
    context.shutdownTasks.push(async () => {
      clearInterval(timer);
      await this.flush();
    });
  }

  /** A settled charge (no I/O here: it is written with the next flush). */
  add(key: string, quota: number): void {
    if (quota !== 0) this.pending.set(key, (this.pending.get(key) ?? 0) + quota);
  }

  /** What the budget has spent in its period: the table's figure and this node's charges not yet written. */
  async spent(key: string): Promise<number> {
    const { scope, period } = splitKey(key);
    const row = await this.db
      .selectFrom('limit_budget_spend')
      .select('spent')
      .where('scope', '=', scope)
      .where('period', '=', period)
      .executeTakeFirst();
    return Number(row?.spent ?? 0) + (this.pending.get(key) ?? 0);
  }

  /** Writes the pending charges; one flush at a time, and what fails is kept for the next. */
  flush(): Promise<void> {
    if (this.flushing || this.pending.size === 0) return this.flushing ?? Promise.resolve();
    const batch = [...this.pending];
    this.pending.clear();
    this.flushing = this.write(batch)
      .catch((error: unknown) =>
        this.context.logger.warn({ err: error }, 'writing the budgets’ spend failed (kept for the next write)'),
      )
      .finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async write(batch: [string, number][]): Promise<void> {
    const { dialect } = this.context.database;
    // In key order, so concurrent writers on other nodes lock the rows alike.
    batch.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (let index = 0; index < batch.length; index++) {
      const [key, quota] = batch[index]!;
      try {
        await this.upsert(dialect, key, quota);
      } catch (error) {
        for (const [kept, amount] of batch.slice(index)) this.add(kept, amount);
        throw error;
      }
    }
  }

  private async upsert(dialect: string, key: string, quota: number): Promise<void> {
    const insert = this.db.insertInto('limit_budget_spend').values({ ...splitKey(key), spent: quota });
    if (dialect === 'mysql') await insert.onDuplicateKeyUpdate({ spent: sql`spent + values(spent)` }).execute();
    else
      await insert
        .onConflict((conflict) =>
          conflict.columns(['scope', 'period']).doUpdateSet({ spent: sql`limit_budget_spend.spent + excluded.spent` }),
        )
        .execute();
  }
}
