import type { AppContext } from '../context.js';

/** A background job: a name, how often it runs, and the work. The scheduler owns timing and overlap. */
export interface Job {
  readonly name: string;
  /** Seconds between runs; 0 or less means the job is off. */
  intervalSeconds(context: AppContext): number;
  /** Run on slave nodes too (one-api runs most jobs on the master only). */
  readonly runOnSlaves?: boolean;
  run(context: AppContext, signal: AbortSignal): Promise<void>;
}
