import type { UpstreamRequest, UpstreamResponse } from '../../adaptor.js';

/** Sends one request and reads the whole answer (the pipeline's client in the server, a stub in tests). */
export type SendUpstream = (request: UpstreamRequest) => Promise<UpstreamResponse>;

interface Entry {
  value: string;
  expiresAtMs: number;
}

/**
 * Short-lived upstream credentials (Baidu access tokens, Zhipu JWTs) per channel key, fetched once and
 * reused until `refreshBeforeMs` before they expire. Concurrent callers share one fetch.
 */
export class CredentialCache {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<Entry>>();

  constructor(
    private readonly refreshBeforeMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cached credential for `cacheKey`, or the result of `fetch` (stored until it nearly expires). */
  async get(cacheKey: string, fetch: () => Promise<Entry>): Promise<string> {
    const entry = this.entries.get(cacheKey);
    if (entry && entry.expiresAtMs - this.refreshBeforeMs > this.now()) return entry.value;
    let running = this.pending.get(cacheKey);
    if (!running) {
      running = fetch().finally(() => this.pending.delete(cacheKey));
      this.pending.set(cacheKey, running);
    }
    const fresh = await running;
    this.entries.set(cacheKey, fresh);
    return fresh.value;
  }

  /** Forgets a credential the upstream rejected, so the next call fetches a new one. */
  forget(cacheKey: string): void {
    this.entries.delete(cacheKey);
  }
}
