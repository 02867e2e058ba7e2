import { randomUUID } from 'node:crypto';
import { listPrice, type ListPrice } from '@modelgate/wire';
import type { AppContext } from '../../context.js';
import { updateOption } from '../option/option.service.js';
import { deleteModelPrice, listModelPrices, upsertModelPrices } from './model-price.repository.js';

export interface AdminPrice {
  model: string;
  group: string;
  list: ListPrice;
  note: string;
  updatedAt: number;
}

/**
 * The admins' prices in memory, read on every call. The table is read whole at start and again whenever
 * the ModelPricesRevision option differs from the revision read: each write sets a new revision, which
 * reaches the other nodes as any option does (the bus, or the periodic reload without Redis).
 */
class PriceBook {
  private byModel = new Map<string, Map<string, AdminPrice>>();
  private revision: string | null = null;
  private loading: Promise<void> | null = null;

  constructor(private readonly context: AppContext) {}

  /** Reads the table; one read at a time, a read asked for meanwhile waits for it and reads again. */
  load(): Promise<void> {
    const next = (this.loading ?? Promise.resolve()).catch(() => undefined).then(() => this.read());
    const tracked = next.finally(() => {
      if (this.loading === tracked) this.loading = null;
    });
    this.loading = tracked;
    return tracked;
  }

  private async read(): Promise<void> {
    const revision = this.context.options.string('ModelPricesRevision');
    const rows = await listModelPrices(this.context.database.db);
    const byModel = new Map<string, Map<string, AdminPrice>>();
    for (const row of rows) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(row.price);
      } catch {
        parsed = undefined;
      }
      const price = listPrice.safeParse(parsed);
      if (!price.success) {
        this.context.logger.error({ model: row.model, group: row.price_group }, 'unreadable model price: ignored');
        continue;
      }
      const groups = byModel.get(row.model) ?? new Map<string, AdminPrice>();
      groups.set(row.price_group, {
        model: row.model,
        group: row.price_group,
        list: price.data,
        note: row.note,
        updatedAt: Number(row.updated_at),
      });
      byModel.set(row.model, groups);
    }
    this.byModel = byModel;
    this.revision = revision;
  }

  /** The admin's price of a model for a group, or for every group; null when none. */
  find(model: string, group: string): AdminPrice | null {
    if (this.revision === null) throw new Error('the admin prices are read at start (registerPricing) before any call');
    if (this.revision !== this.context.options.string('ModelPricesRevision') && !this.loading)
      void this.load().catch((error: unknown) => this.context.logger.error({ error }, 'reloading model prices failed'));
    const groups = this.byModel.get(model);
    return groups?.get(group) ?? groups?.get('') ?? null;
  }

  all(): AdminPrice[] {
    return [...this.byModel.values()].flatMap((groups) => [...groups.values()]);
  }

  /** Writes prices, tells every node (a new revision), and answers once this node reads them. */
  async save(prices: readonly { model: string; group: string; list: ListPrice; note: string }[]): Promise<void> {
    const now = Math.floor(Date.now() / 1000);
    const rows = prices.map((price) => ({
      model: price.model,
      price_group: price.group,
      price: JSON.stringify(price.list),
      note: price.note,
      updated_at: now,
    }));
    await upsertModelPrices(this.context.database.db, this.context.database.dialect, rows);
    await this.announce();
  }

  async remove(model: string, group: string): Promise<boolean> {
    const removed = await deleteModelPrice(this.context.database.db, model, group);
    if (removed) await this.announce();
    return removed;
  }

  private async announce(): Promise<void> {
    const { context } = this;
    await updateOption(context.database, context.options, 'ModelPricesRevision', randomUUID());
    await context.bus.publish('options', 'ModelPricesRevision');
    await this.load();
  }
}

const books = new WeakMap<AppContext, PriceBook>();

/** A preview's context (other options, same database) reads the live context's admin prices. */
export const sharePriceBook = (preview: AppContext, live: AppContext) => books.set(preview, priceBook(live));

export function priceBook(context: AppContext): PriceBook {
  let book = books.get(context);
  if (!book) {
    book = new PriceBook(context);
    books.set(context, book);
  }
  return book;
}
