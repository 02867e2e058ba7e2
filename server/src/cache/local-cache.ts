interface Entry<V> {
  value: V;
  expiresAt: number;
}

/** How a cache keeps answers that found nothing: apart from the hits, fewer of them and for less time. */
export interface MissPolicy<V> {
  /** True for a value that means "nothing found" (null, 0). */
  isMiss(value: V): boolean;
  ttlMs: number;
  maxEntries: number;
}

/**
 * A bounded in-process cache with a time to live. Entries are dropped on invalidation (see
 * InvalidationBus) and expire after `ttlMs` as a safety net, so a missed message heals by itself.
 *
 * With a `MissPolicy`, answers that found nothing live in a second, smaller map with a shorter life: anyone
 * can send random keys, and their misses must neither grow the process nor push real rows out (decision 0003).
 */
export class LocalCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly misses = new Map<string, Entry<V>>();
  private readonly pending = new Map<string, Promise<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 100_000,
    private readonly missPolicy?: MissPolicy<V>,
  ) {}

  /** Entries held now (hits and misses), for tests and benchmarks. */
  get size(): { hits: number; misses: number; pending: number } {
    return { hits: this.entries.size, misses: this.misses.size, pending: this.pending.size };
  }

  get(key: string): V | undefined {
    const hit = readEntry(this.entries, key);
    if (hit !== undefined || !this.missPolicy) return hit;
    return readEntry(this.misses, key);
  }

  set(key: string, value: V): void {
    if (this.missPolicy?.isMiss(value)) {
      this.entries.delete(key);
      putEntry(this.misses, key, value, this.missPolicy.ttlMs, this.missPolicy.maxEntries);
      return;
    }
    this.misses.delete(key);
    putEntry(this.entries, key, value, this.ttlMs, this.maxEntries);
  }

  delete(key: string): void {
    this.entries.delete(key);
    this.misses.delete(key);
    this.pending.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.misses.clear();
    this.pending.clear();
  }

  /** Returns the cached value or loads it once, however many callers ask at the same moment. */
  async getOrLoad(key: string, load: () => Promise<V>): Promise<V> {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const inFlight = this.pending.get(key);
    if (inFlight) return inFlight;
    const loading = load()
      .then((value) => {
        if (this.pending.get(key) === loading) this.set(key, value);
        return value;
      })
      .finally(() => {
        if (this.pending.get(key) === loading) this.pending.delete(key);
      });
    this.pending.set(key, loading);
    return loading;
  }
}

function readEntry<V>(map: Map<string, Entry<V>>, key: string): V | undefined {
  const entry = map.get(key);
  if (!entry) return undefined;
  if (entry.expiresAt <= Date.now()) {
    map.delete(key);
    return undefined;
  }
  return entry.value;
}

/**
 * Inserts at the end; a full map first gives up its oldest sixteenth (maps iterate in insertion order). Not one
 * entry at a time: V8 leaves a deleted entry as a hole at the front of the table until it is rebuilt, and every
 * `keys().next()` walks over all of them, so evicting the oldest one by one cost 15-45 µs of blocked event loop
 * per insertion into a full cache (10,000 to 100,000 entries), which a flood of random keys keeps full.
 */
function putEntry<V>(map: Map<string, Entry<V>>, key: string, value: V, ttlMs: number, maxEntries: number): void {
  if (map.has(key)) map.delete(key);
  else if (map.size >= maxEntries) {
    let evictions = Math.max(1, maxEntries >> 4);
    for (const oldest of map.keys()) {
      map.delete(oldest);
      if (--evictions === 0) break;
    }
  }
  map.set(key, { value, expiresAt: Date.now() + ttlMs });
}
