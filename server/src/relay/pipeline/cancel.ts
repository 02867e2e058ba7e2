/**
 * Stops a relay call's upstream work when its client leaves (or a channel test runs out of time). An
 * AbortSignal is made only when something asks for one (vendor SDKs, WebSockets, sleeps): making one for
 * every call cost more than the rest of a call's bookkeeping, and the main upstream call needs none.
 */
export class Cancel {
  cancelled = false;
  reason: Error | undefined;
  private controller: AbortController | undefined;
  private listeners: Set<(reason: Error) => void> | undefined;

  /** A Cancel that fires by itself after `ms`, as a timeout (its reason reads as one to the upstream client). */
  static after(ms: number): Cancel {
    const cancel = new Cancel();
    const reason = Object.assign(new Error(`no answer within ${ms} ms`), { code: 'RELAY_TIMEOUT' });
    setTimeout(() => cancel.cancel(reason), ms).unref();
    return cancel;
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.cancelled) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** Calls `listener` once, on cancel; returns what stops listening. */
  onCancel(listener: (reason: Error) => void): () => void {
    (this.listeners ??= new Set()).add(listener);
    return () => this.listeners?.delete(listener);
  }

  cancel(reason: Error = new Error('the client went away')): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.reason = reason;
    this.controller?.abort(reason);
    const listeners = this.listeners;
    this.listeners = undefined;
    if (listeners) for (const listener of listeners) listener(reason);
  }
}
