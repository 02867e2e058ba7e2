/** One channel's last outcomes in a fixed ring (1 = success), with a running count of the successes. */
class OutcomeWindow {
  private readonly outcomes: Uint8Array;
  private next = 0;
  private filled = 0;
  successes = 0;

  constructor(size: number) {
    this.outcomes = new Uint8Array(size);
  }

  get full(): boolean {
    return this.filled === this.outcomes.length;
  }

  push(success: boolean): void {
    // Once full, the slot written next holds the oldest outcome, which leaves the window.
    if (this.full) this.successes -= this.outcomes[this.next]!;
    else this.filled++;
    this.outcomes[this.next] = success ? 1 : 0;
    if (success) this.successes++;
    this.next = (this.next + 1) % this.outcomes.length;
  }

  reset(): void {
    this.next = 0;
    this.filled = 0;
    this.successes = 0;
  }
}

/**
 * one-api's success-rate metric (ENABLE_METRIC, server-behaviour §6.3): the last `size` outcomes of each
 * channel. Recording costs a map lookup and a few integer writes; a channel's ring is allocated once.
 */
export class ChannelSuccessRate {
  private readonly windows = new Map<number, OutcomeWindow>();

  constructor(
    readonly size: number,
    readonly threshold: number,
  ) {}

  recordSuccess(channelId: number): void {
    this.window(channelId).push(true);
  }

  /**
   * Records a failure. When the window is full and its success rate is below the threshold, the window
   * starts over and the rate is returned: the channel should be disabled.
   */
  recordFailure(channelId: number): number | undefined {
    const window = this.window(channelId);
    window.push(false);
    if (!window.full) return undefined;
    const rate = window.successes / this.size;
    if (rate >= this.threshold) return undefined;
    window.reset();
    return rate;
  }

  private window(channelId: number): OutcomeWindow {
    let window = this.windows.get(channelId);
    if (!window) {
      window = new OutcomeWindow(this.size);
      this.windows.set(channelId, window);
    }
    return window;
  }
}
