import type { LimitCheck } from './limit-plan.js';

/** A request and tokens window lasts this long from the call that opened it. */
export const windowMs = 60_000;

/** What one check showed at admission: what is left after this call, when its window (or period) ends. */
export interface CheckState {
  remaining: number;
  resetMs: number;
  /** The window's start (`k`): a settlement changes that window only, never a later one. */
  window: number;
}

export type Admission =
  { admitted: true; states: CheckState[] } | { admitted: false; refused: number; retryAfterMs: number };

/** What a finished call gives back or adds: its real token count, and what its budgets' counters take. */
export interface Settlement {
  /** Real tokens minus the tokens reserved at admission. */
  tokensDelta: number;
  /** The charge minus what the call's holds left in each budget's counter (decision 0031). */
  budgetDelta: number;
}

/** A hold a budget cannot take: the tightest budget (an index into the checks given) and the room it has left. */
export interface BudgetRefusal {
  refused: number;
  room: number;
}

/** A budget's spend in its period as the database knows it, to rebuild a counter the store lacks. */
export type SpentOf = (key: string) => Promise<number>;

/**
 * Checks and takes every limit of a call in one step (all or none), and settles at its end. `scale` divides
 * every limit (this node's share while Redis is lost). A budget's counter holds its spend plus the holds of
 * its calls in flight: admission refuses a budget already at its cap, `holdBudgets` takes an attempt's hold
 * (refused when it does not fit), and the settlement replaces the holds by the charge.
 */
export interface LimitStore {
  admit(checks: LimitCheck[], lease: string, tokens: number, scale: number): Promise<Admission>;
  /** Adds `amount` (a hold, less what refunds gave back) to every budget in `checks`, all or none. */
  holdBudgets(checks: LimitCheck[], amount: number, scale: number): Promise<BudgetRefusal | undefined>;
  finish(checks: LimitCheck[], states: CheckState[], lease: string, settlement: Settlement): Promise<void>;
  /** What each counter holds now, creating none (the console's usage): a budget Redis lacks reads the database. */
  peek(checks: LimitCheck[]): Promise<number[]>;
}

export const scaled = (limit: number, scale: number) => (scale === 1 ? limit : Math.max(1, Math.floor(limit / scale)));

/** A refused concurrency slot is retried after this long (no one knows when a call in flight ends). */
export const concurrencyRetryMs = 1000;

interface Counter {
  start: number;
  used: number;
}

/** A budget's counter in memory: spend plus holds, from `seed` (the database's spend when it was read). */
interface BudgetCounter {
  endsAtMs: number;
  seed: number;
  used: number;
}

/**
 * A budget's cap on this node: the whole cap alone, or, while Redis is lost, the spend when the counter was
 * rebuilt plus this node's share of what was left then.
 */
const budgetCap = (limit: number, counter: BudgetCounter, scale: number) =>
  scale === 1 ? limit : counter.seed + Math.max(0, Math.floor((limit - counter.seed) / scale));

/** One node's counters (no Redis, or Redis lost), with the same rules as the Redis script. */
export class MemoryLimitStore implements LimitStore {
  private readonly windows = new Map<string, Counter>();
  private readonly slots = new Map<string, Set<string>>();
  private readonly budgets = new Map<string, BudgetCounter>();

  constructor(private readonly spentOf: SpentOf) {}

  /** The budget's counter, rebuilt from the database when this node has none for the period yet. */
  private async budget(check: LimitCheck, now: number): Promise<BudgetCounter> {
    const counter = this.budgets.get(check.key);
    if (counter && now < counter.endsAtMs) return counter;
    const seed = await this.spentOf(check.key);
    // Another call may have rebuilt it meanwhile: the first one stays.
    const again = this.budgets.get(check.key);
    if (again && now < again.endsAtMs) return again;
    const built = { endsAtMs: check.endsAtMs!, seed, used: seed };
    this.budgets.set(check.key, built);
    return built;
  }

  async admit(checks: LimitCheck[], lease: string, tokens: number, scale: number): Promise<Admission> {
    for (const check of checks) if (check.kind === 'b') await this.budget(check, Date.now());
    const now = Date.now();
    for (let index = 0; index < checks.length; index++) {
      const check = checks[index]!;
      const limit = scaled(check.limit, scale);
      if (check.kind === 'c') {
        if ((this.slots.get(check.key)?.size ?? 0) >= limit)
          return { admitted: false, refused: index, retryAfterMs: concurrencyRetryMs };
      } else if (check.kind === 'b') {
        const counter = this.budgets.get(check.key)!;
        if (counter.used >= budgetCap(check.limit, counter, scale))
          return { admitted: false, refused: index, retryAfterMs: check.endsAtMs! - now };
      } else {
        const window = this.windowOf(check.key, now);
        if (window.used + (check.kind === 'r' ? 1 : tokens) > limit)
          return { admitted: false, refused: index, retryAfterMs: window.start + windowMs - now };
      }
    }
    const states = checks.map((check): CheckState => {
      const limit = scaled(check.limit, scale);
      if (check.kind === 'c') {
        let slots = this.slots.get(check.key);
        if (!slots) this.slots.set(check.key, (slots = new Set()));
        slots.add(lease);
        return { remaining: limit - slots.size, resetMs: 0, window: 0 };
      }
      if (check.kind === 'b') {
        const counter = this.budgets.get(check.key)!;
        return {
          remaining: budgetCap(check.limit, counter, scale) - counter.used,
          resetMs: check.endsAtMs! - now,
          window: 0,
        };
      }
      const window = this.windowOf(check.key, now);
      window.used += check.kind === 'r' ? 1 : tokens;
      this.windows.set(check.key, window);
      return { remaining: limit - window.used, resetMs: window.start + windowMs - now, window: window.start };
    });
    return { admitted: true, states };
  }

  async holdBudgets(checks: LimitCheck[], amount: number, scale: number): Promise<BudgetRefusal | undefined> {
    const counters = [];
    for (const check of checks) counters.push(await this.budget(check, Date.now()));
    let tightest: BudgetRefusal | undefined;
    counters.forEach((counter, index) => {
      const room = budgetCap(checks[index]!.limit, counter, scale) - counter.used;
      if (!tightest || room < tightest.room) tightest = { refused: index, room };
    });
    if (amount > 0 && tightest && amount > tightest.room) return tightest;
    for (const counter of counters) counter.used += amount;
    return undefined;
  }

  async finish(checks: LimitCheck[], states: CheckState[], lease: string, settlement: Settlement): Promise<void> {
    const now = Date.now();
    checks.forEach((check, index) => {
      if (check.kind === 'c') {
        const slots = this.slots.get(check.key);
        slots?.delete(lease);
        if (slots?.size === 0) this.slots.delete(check.key);
      } else if (check.kind === 'k') {
        const window = this.windows.get(check.key);
        if (window && window.start === states[index]!.window) window.used += settlement.tokensDelta;
      } else if (check.kind === 'b') {
        // A counter rebuilt meanwhile (a new period) already holds what the database had.
        const counter = this.budgets.get(check.key);
        if (counter) counter.used += settlement.budgetDelta;
      }
    });
    this.sweep(now);
  }

  async peek(checks: LimitCheck[]): Promise<number[]> {
    const now = Date.now();
    const used: number[] = [];
    for (const check of checks) {
      if (check.kind === 'c') used.push(this.slots.get(check.key)?.size ?? 0);
      else if (check.kind === 'b') {
        const counter = this.budgets.get(check.key);
        used.push(counter && now < counter.endsAtMs ? counter.used : await this.spentOf(check.key));
      } else {
        const window = this.windows.get(check.key);
        used.push(window && now < window.start + windowMs ? window.used : 0);
      }
    }
    return used;
  }

  /** A window that ended is a new one from now. */
  private windowOf(key: string, now: number): Counter {
    const window = this.windows.get(key);
    return window && now < window.start + windowMs ? window : { start: now, used: 0 };
  }

  /** Drops ended windows and periods now and then, so idle keys do not pile up. */
  private sweep(now: number): void {
    if (this.windows.size + this.budgets.size < 10_000) return;
    for (const [key, window] of this.windows) if (now >= window.start + windowMs) this.windows.delete(key);
    for (const [key, counter] of this.budgets) if (now >= counter.endsAtMs) this.budgets.delete(key);
  }
}
