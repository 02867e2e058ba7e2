import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables.js';
import { isBuiltInTable, optionDefinitions, type OptionKey } from './option.definitions.js';

/**
 * The runtime options in memory: typed reads for the hot path, parsed once when a value changes.
 * The database is the source of truth; `reload` re-reads it (at start, every SYNC_FREQUENCY, and when
 * another node announces a change). A write on this node is applied at once (`apply`), before it answers.
 *
 * Reloads run one at a time (one asked for meanwhile is queued and shared), so an older read never lands
 * after a newer one; and a reload whose read began before a local `apply` leaves that key alone.
 */
export class OptionStore {
  private readonly raw = new Map<string, string>();
  private readonly parsed = new Map<string, unknown>();
  /** Counts local writes; `writtenAt` keeps the count at each key's last write. */
  private writes = 0;
  private readonly writtenAt = new Map<string, number>();
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;

  constructor() {
    for (const [key, definition] of Object.entries(optionDefinitions)) this.set(key, definition.defaultValue);
  }

  /** Re-reads every option from a read that starts after this call (queued behind a reload under way). */
  reload(db: Kysely<Database>): Promise<void> {
    if (this.queued) return this.queued;
    const running = this.running;
    if (!running) return this.start(db);
    const next = running
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.start(db);
      });
    this.queued = next;
    return next;
  }

  private start(db: Kysely<Database>): Promise<void> {
    const run = this.read(db).finally(() => {
      if (this.running === run) this.running = undefined;
    });
    this.running = run;
    return run;
  }

  private async read(db: Kysely<Database>): Promise<void> {
    const writesBefore = this.writes;
    const rows = await db.selectFrom('options').select(['key', 'value']).execute();
    const values = new Map<string, string>();
    for (const row of rows) if (Object.hasOwn(optionDefinitions, row.key)) values.set(row.key, row.value ?? '');
    for (const [key, definition] of Object.entries(optionDefinitions)) {
      // Written here after the read began: the row may predate that write.
      if ((this.writtenAt.get(key) ?? 0) > writesBefore) continue;
      // A key without a row is back at its default (a ratio table cleared on another node).
      const value = values.get(key) ?? definition.defaultValue;
      if (this.raw.get(key) !== value) this.set(key, value);
    }
  }

  /** A copy of these options with some values changed, for a preview; this store is left as it is. */
  withValues(changes: readonly { key: string; value: string }[]): OptionStore {
    const copy = new OptionStore();
    for (const [key, value] of this.raw) copy.set(key, value);
    for (const { key, value } of changes) copy.set(key, value);
    return copy;
  }

  /** Applies a value already validated and saved. */
  apply(key: string, value: string): void {
    this.writes += 1;
    this.writtenAt.set(key, this.writes);
    this.set(key, value);
  }

  private set(key: string, value: string): void {
    this.raw.set(key, value);
    this.parsed.delete(key);
  }

  string(key: OptionKey): string {
    return this.raw.get(key) ?? '';
  }

  bool(key: OptionKey): boolean {
    return this.raw.get(key) === 'true';
  }

  number(key: OptionKey): number {
    const value = Number(this.raw.get(key));
    return Number.isFinite(value) ? value : Number(optionDefinitions[key].defaultValue);
  }

  /** A JSON option, parsed once per change; an unparsable stored value falls back to the default. */
  json<T>(key: OptionKey): T {
    if (this.parsed.has(key)) return this.parsed.get(key) as T;
    let value: unknown;
    try {
      value = JSON.parse(this.raw.get(key) ?? '');
    } catch {
      value = JSON.parse(optionDefinitions[key].defaultValue);
    }
    this.parsed.set(key, value);
    return value as T;
  }

  /**
   * Every option that may be shown, secrets left out. A ratio table the admin never stored is listed empty,
   * its built-in table apart (`built_in`): shown as the value, it was saved back as the admin's own.
   */
  visibleEntries(): { key: string; value: string; built_in?: string }[] {
    return Object.entries(optionDefinitions)
      .filter(([, definition]) => definition.kind !== 'secret')
      .map(([key, definition]) => {
        const value = this.raw.get(key) ?? '';
        if (!isBuiltInTable(key)) return { key, value };
        return { key, value: value === definition.defaultValue ? '' : value, built_in: definition.defaultValue };
      });
  }
}
