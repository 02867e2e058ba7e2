import { randomUUID } from 'node:crypto';
import type { RunProgress } from '@modelgate/wire';
import type { AppContext } from '../../context.js';
import { nowSeconds } from '../../lib/time.js';

export type { RunProgress };

/** A started run; `finished` settles when it ends (never rejects). Wrapped so `await` does not wait for it. */
export interface StartedRun {
  finished: Promise<void>;
}

/** Handed to the work so it can report how far it got. */
export interface RunReporter {
  setTotal(total: number): Promise<void>;
  advance(): Promise<void>;
}

interface RunState {
  running: boolean;
  progress: RunProgress;
  controller: AbortController | null;
  finished: Promise<void> | null;
}

const idleProgress = (): RunProgress => ({
  running: false,
  scope: '',
  done: 0,
  total: 0,
  started_at: 0,
  finished_at: 0,
});

/** Seconds a node holds the cross-node lock without renewing it; a crashed node frees it after this. */
const lockSeconds = 60;
const progressSeconds = 24 * 3600;

const statesByContext = new WeakMap<AppContext, Map<string, RunState>>();

function stateOf(context: AppContext, name: string): RunState {
  let states = statesByContext.get(context);
  if (!states) {
    const created = new Map<string, RunState>();
    states = created;
    statesByContext.set(context, created);
    // Stop background runs before the databases close, so none writes to a closed pool.
    context.shutdownTasks.push(async () => {
      for (const state of created.values()) state.controller?.abort();
      await Promise.allSettled([...created.values()].map((state) => state.finished));
    });
  }
  let state = states.get(name);
  if (!state) {
    state = { running: false, progress: idleProgress(), controller: null, finished: null };
    states.set(name, state);
  }
  return state;
}

const releaseScript = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/** Shares the progress with the other nodes; while Redis is away only this node's copy moves on. */
async function saveProgress(context: AppContext, name: string, progress: RunProgress): Promise<void> {
  if (!context.redis) return;
  try {
    await context.redis.set(`${name}:progress`, JSON.stringify(progress), 'EX', progressSeconds);
  } catch (error) {
    context.logger.debug({ err: error, run: name }, 'run progress not shared (redis unreachable)');
  }
}

/**
 * Takes the cross-node lock: 'held', 'taken' (another node runs), or 'local' when Redis does not answer. A
 * run then goes on in this process alone (still one per process): two nodes may test or refresh the same
 * channels during an outage, which costs upstream calls but changes nothing twice, whereas refusing would
 * leave the console's button and the periodic channel test dead until Redis returns.
 */
async function acquireRunLock(
  context: AppContext,
  name: string,
  lockKey: string,
  lockToken: string,
): Promise<'held' | 'taken' | 'local'> {
  if (!context.redis) return 'local';
  try {
    return (await context.redis.set(lockKey, lockToken, 'EX', lockSeconds, 'NX')) === 'OK' ? 'held' : 'taken';
  } catch (error) {
    context.logger.warn({ err: error, run: name }, 'run lock unavailable (redis unreachable): running on this node');
    return 'local';
  }
}

/**
 * Starts `work` in the background unless a run of the same name is already going on in this process or,
 * with Redis, on any node. Returns the started run, or null when another run holds it.
 * The running flag and the lock are released in `finally`, so a failure can never leave them stuck
 * (one-api's flag stuck until restart when loading the channels failed). `stopSignal` (a job's) stops the
 * work early, as does server shutdown.
 */
export async function startExclusiveRun(
  context: AppContext,
  name: string,
  scope: string,
  work: (reporter: RunReporter, signal: AbortSignal) => Promise<void>,
  stopSignal?: AbortSignal,
): Promise<StartedRun | null> {
  const state = stateOf(context, name);
  if (state.running) return null;
  state.running = true; // set before any await: two requests in one process cannot both pass
  const lockKey = `${name}:lock`;
  const lockToken = randomUUID();
  const lock = await acquireRunLock(context, name, lockKey, lockToken);
  if (lock === 'taken') {
    state.running = false;
    return null;
  }
  const controller = new AbortController();
  const stop = () => controller.abort();
  stopSignal?.addEventListener('abort', stop, { once: true });
  const progress: RunProgress = { running: true, scope, done: 0, total: 0, started_at: nowSeconds(), finished_at: 0 };
  state.progress = progress;
  state.controller = controller;
  const reporter: RunReporter = {
    setTotal: async (total) => {
      progress.total = total;
      await saveProgress(context, name, progress);
    },
    advance: async () => {
      progress.done += 1;
      await saveProgress(context, name, progress);
    },
  };
  const heartbeat =
    lock === 'held'
      ? setInterval(
          () => void context.redis?.expire(lockKey, lockSeconds).catch(() => undefined),
          (lockSeconds / 3) * 1000,
        )
      : null;
  heartbeat?.unref();
  const finished = (async () => {
    try {
      await saveProgress(context, name, progress);
      await work(reporter, controller.signal);
    } catch (error) {
      context.logger.error({ err: error, run: name }, 'background run failed');
    } finally {
      if (heartbeat) clearInterval(heartbeat);
      stopSignal?.removeEventListener('abort', stop);
      progress.running = false;
      progress.finished_at = nowSeconds();
      await saveProgress(context, name, progress);
      try {
        if (lock === 'held') await context.redis?.eval(releaseScript, 1, lockKey, lockToken);
      } catch (error) {
        // The lock then expires by itself within lockSeconds.
        context.logger.warn({ err: error, run: name }, 'releasing a background run lock failed');
      }
      state.running = false;
      state.controller = null;
    }
  })();
  state.finished = finished;
  return { finished };
}

/** The progress of the latest run of this name: this process's, or with Redis the cluster's. */
export async function readRunProgress(context: AppContext, name: string): Promise<RunProgress> {
  const state = stateOf(context, name);
  const local = { ...state.progress, running: state.running };
  if (!context.redis) return local;
  let saved: string | null;
  let locked: number;
  try {
    [saved, locked] = await Promise.all([context.redis.get(`${name}:progress`), context.redis.exists(`${name}:lock`)]);
  } catch {
    return local; // Redis away: what this node knows
  }
  const progress = saved ? { ...idleProgress(), ...(JSON.parse(saved) as Partial<RunProgress>) } : idleProgress();
  // The lock, not the saved flag, says whether a run is alive: a node that died mid-run leaves running:true.
  return { ...progress, running: locked === 1 || state.running };
}

/** Sleeps, waking early when the run is stopped. */
export function pause(milliseconds: number, signal: AbortSignal): Promise<void> {
  if (milliseconds <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, milliseconds);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
