import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables.js';
import { optionDefinitions, type OptionKey } from './option.definitions.js';

/**
 * The runtime options in memory: typed reads for the hot path, parsed once when a value changes.
 * The database is the source of truth; `reload` re-reads it (at start, every SYNC_FREQUENCY, and when
 * another node announces a change).
 */
export class OptionStore {
  private readonly raw = new Map<string, string>();
  private readonly parsed = new Map<string, unknown>();

  constructor() {
    for (const [key, definition] of Object.entries(optionDefinitions)) this.apply(key, definition.defaultValue);
  }

  async reload(db: Kysely<Database>): Promise<void> {
    const rows = await db.selectFrom('options').select(['key', 'value']).execute();
    for (const row of rows) {
      if (Object.hasOwn(optionDefinitions, row.key)) this.apply(row.key, row.value ?? '');
    }
  }

  /** Applies a value already validated and saved. */
  apply(key: string, value: string): void {
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

  /** Every option that may be shown, secrets left out. */
  visibleEntries(): { key: string; value: string }[] {
    return Object.entries(optionDefinitions)
      .filter(([, definition]) => definition.kind !== 'secret')
      .map(([key]) => ({ key, value: this.raw.get(key) ?? '' }));
  }
}
