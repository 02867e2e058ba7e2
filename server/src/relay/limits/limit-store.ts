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

/** What a finished call gives back or adds: its real token count, its charge. */
export interface Settlement {
  /** Real tokens minus the tokens reserved at admission. */
  tokensDelta: number;
  /** The quota charged (added to each budget). */
  charged: number;
}

/**
 * Checks and takes every limit of a call in one step (all or none), and settles at its end. `scale` divides
 * every limit (this node's share while Redis is lost).
 */
export interface LimitStore {
  admit(checks: LimitCheck[], lease: string, tokens: number, scale: number): Promise<Admission>;
  finish(checks: LimitCheck[], states: CheckState[], lease: string, settlement: Settlement): Promise<void>;
}

export const scaled = (limit: number, scale: number) => (scale === 1 ? limit : Math.max(1, Math.floor(limit / scale)));

/** A refused concurrency slot is retried after this long (no one knows when a call in flight ends). */
export const concurrencyRetryMs = 1000;

interface Counter {
  start: number;
  used: number;
}

/** One node's counters (no Redis, or Redis lost), with the same rules as the Redis script. */
export class MemoryLimitStore implements LimitStore {
  private readonly windows = new Map<string, Counter>();
  private readonly slots = new Map<string, Set<string>>();
  private readonly spent = new Map<string, Counter>();

  async admit(checks: LimitCheck[], lease: string, tokens: number, scale: number): Promise<Admission> {
    const now = Date.now();
    for (let index = 0; index < checks.length; index++) {
      const check = checks[index]!;
      const limit = scaled(check.limit, scale);
      if (check.kind === 'c') {
        if ((this.slots.get(check.key)?.size ?? 0) >= limit)
          return { admitted: false, refused: index, retryAfterMs: concurrencyRetryMs };
      } else if (check.kind === 'b') {
        if (this.spentIn(check, now) >= limit)
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
      if (check.kind === 'b')
        return { remaining: limit - this.spentIn(check, now), resetMs: check.endsAtMs! - now, window: 0 };
      const window = this.windowOf(check.key, now);
      window.used += check.kind === 'r' ? 1 : tokens;
      this.windows.set(check.key, window);
      return { remaining: limit - window.used, resetMs: window.start + windowMs - now, window: window.start };
    });
    return { admitted: true, states };
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
      } else if (check.kind === 'b' && settlement.charged !== 0) {
        const counter = this.spent.get(check.key) ?? { start: check.endsAtMs!, used: 0 };
        counter.used += settlement.charged;
        this.spent.set(check.key, counter);
      }
    });
    this.sweep(now);
  }

  /** A window that ended is a new one from now. */
  private windowOf(key: string, now: number): Counter {
    const window = this.windows.get(key);
    return window && now < window.start + windowMs ? window : { start: now, used: 0 };
  }

  private spentIn(check: LimitCheck, now: number): number {
    const counter = this.spent.get(check.key);
    return counter && now < counter.start ? counter.used : 0;
  }

  /** Drops ended windows and periods now and then, so idle keys do not pile up. */
  private sweep(now: number): void {
    if (this.windows.size + this.spent.size < 10_000) return;
    for (const [key, window] of this.windows) if (now >= window.start + windowMs) this.windows.delete(key);
    for (const [key, counter] of this.spent) if (now >= counter.start) this.spent.delete(key);
  }
}
