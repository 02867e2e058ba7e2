import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { isRedisReady } from '../../cache/redis-connection.js';
import type { AppContext } from '../../context.js';
import { databaseSeconds } from '../../db/database-clock.js';
import { abandonedAfterSeconds } from '../billing/reservation-sweeper.js';
import type { RelayJob } from '../pipeline/relay-job.js';
import { relayErrors } from '../relay-errors.js';
import { estimatePrompt } from '../tokenizer/count-tokens.js';
import { BudgetSpend } from './budget-spend.js';
import { limitPlanOf, type LimitCheck } from './limit-plan.js';
import { MemoryLimitStore, type CheckState, type LimitStore } from './limit-store.js';
import { RedisLimitStore } from './redis-limit-store.js';

/**
 * How this node enforces limits now: `redis` (exact across nodes), `shared` (Redis is configured but lost:
 * each node enforces its share, limit ÷ live nodes, in memory) or `node` (no Redis: this node alone).
 */
export type LimitsMode = 'redis' | 'shared' | 'node';

/**
 * A concurrency lease lasts as long as a node may miss heartbeats before it is taken for dead (three
 * NODE_HEARTBEAT_INTERVALs, 6 s by default; decision 0014) unless its node renews it, every third of it while
 * the call runs: a killed node's slots come back that long after its last renewal.
 */
const leaseMsOf = (context: AppContext) => abandonedAfterSeconds(context) * 1000;

interface LimitsRuntime {
  redisStore: RedisLimitStore | null;
  memory: MemoryLimitStore;
  /** Live nodes (heartbeats in `relay_nodes`), read now and then; at least 1. */
  liveNodes: number;
  liveNodesReadAt: number;
  /** Calls admitted and not yet finished, by request id: their settlement adds the charge and the real tokens. */
  open: Map<string, CallAdmission>;
  /** The budgets' spend in the database (decision 0031). */
  spend: BudgetSpend;
}

const runtimes = new WeakMap<AppContext, LimitsRuntime>();

function limitsRuntime(context: AppContext): LimitsRuntime {
  let runtime = runtimes.get(context);
  if (runtime) return runtime;
  const spend = new BudgetSpend(context);
  const spentOf = (key: string) => spend.spent(key);
  const leaseMs = leaseMsOf(context);
  const redisStore = context.redis ? new RedisLimitStore(context.redis, leaseMs, spentOf) : null;
  runtime = {
    redisStore,
    memory: new MemoryLimitStore(spentOf),
    liveNodes: 1,
    liveNodesReadAt: 0,
    open: new Map(),
    spend,
  };
  runtimes.set(context, runtime);
  if (redisStore) {
    const timer = setInterval(() => {
      if (isRedisReady(context.redis)) void redisStore.renew().catch(() => undefined);
    }, leaseMs / 3);
    timer.unref();
    context.shutdownTasks.push(async () => clearInterval(timer));
  }
  return runtime;
}

/** The mode of this node, for /api/status (read from the connection's state, no query). */
export function limitsStatus(context: AppContext): { mode: LimitsMode; nodes: number } {
  const mode: LimitsMode = !context.redis ? 'node' : isRedisReady(context.redis) ? 'redis' : 'shared';
  return { mode, nodes: mode === 'shared' ? (runtimes.get(context)?.liveNodes ?? 1) : 1 };
}

/** What each limit's counter holds now, creating none: Redis's while it answers, else this node's (the console's usage). */
export async function limitsUsed(context: AppContext, checks: LimitCheck[]): Promise<number[]> {
  const runtime = limitsRuntime(context);
  if (runtime.redisStore && isRedisReady(context.redis)) {
    try {
      return await runtime.redisStore.peek(checks);
    } catch {
      // Redis failed meanwhile: this node's counters are the ones it enforces now.
    }
  }
  return runtime.memory.peek(checks);
}

/** Re-reads the live nodes at most every heartbeat interval, in the background (no call waits for it). */
function refreshLiveNodes(context: AppContext, runtime: LimitsRuntime): void {
  // The monotonic clock: a wall clock set back must not stop the reads.
  const now = performance.now();
  if (runtime.liveNodesReadAt > 0 && now - runtime.liveNodesReadAt < context.config.NODE_HEARTBEAT_INTERVAL * 1000)
    return;
  runtime.liveNodesReadAt = now;
  const { db } = context.database;
  void db
    .selectFrom('relay_nodes')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('heartbeat_at', '>=', sql<number>`${databaseSeconds(db)} - ${abandonedAfterSeconds(context)}`)
    .executeTakeFirst()
    .then((row) => (runtime.liveNodes = Math.max(1, Number(row?.count ?? 1))))
    .catch(() => undefined);
}

/** The output limit the client set (max_completion_tokens, max_tokens or max_output_tokens), else 0. */
function clientOutputCap(body: Record<string, unknown>): number {
  for (const field of ['max_completion_tokens', 'max_tokens', 'max_output_tokens']) {
    const value = Number(body[field]);
    if (Number.isFinite(value) && value > 0) return Math.ceil(value);
  }
  return 0;
}

/** What a call takes from a tokens limit at admission: the prompt's estimate and the client's output cap. */
function reservedTokens(job: RelayJob): number {
  if (job.body.kind !== 'json') return 0;
  return estimatePrompt(job.body, job.mode, job.model) + clientOutputCap(job.body.value);
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

const limitNames = { r: 'requests per minute', k: 'tokens per minute', c: 'calls in flight', b: 'budget' };

/** What reserve() needs of a call's budgets (billing.service.ts). */
export interface BudgetHold {
  room(): number;
  refusal(): Error;
  take(amount: number): Promise<boolean>;
  release(amount: number): void;
}

/**
 * One admitted call: what it holds, given back by `finish` (completion, client abort, failure). Its budgets
 * (decision 0031) count each attempt's hold from `holdBudgets` (reserve() calls it) until the settlement
 * trades them for the charge; a refunded attempt's hold is given back with the next hold or at the end.
 */
export class CallAdmission implements BudgetHold {
  private charged = 0;
  private usedTokens: number | undefined;
  /** What this call has added to its budgets' counters so far. */
  private inCounters = 0;
  /** The holds of this call's attempts not refunded. */
  private holding = 0;
  /** The least room its budgets had when last seen (at admission, or by a refused hold), less this call's adds since. */
  private counterRoom: number;

  constructor(
    private readonly store: LimitStore,
    private readonly checks: LimitCheck[],
    private readonly states: CheckState[],
    private readonly lease: string,
    private readonly reserved: number,
    private readonly scale: number,
    private readonly spend: BudgetSpend,
    /** The indexes of the budget checks, empty without budgets. */
    private readonly budgets: number[],
    /** Where a budget's refusal sets its Retry-After. */
    private readonly job: RelayJob,
  ) {
    this.counterRoom = Infinity;
    for (const index of budgets) this.counterRoom = Math.min(this.counterRoom, states[index]!.remaining);
  }

  /** The budget that refused the last hold. */
  private refusedBy: number | undefined;

  private tightestBudget(): number {
    let tightest = this.budgets[0]!;
    for (const index of this.budgets)
      if (this.states[index]!.remaining < this.states[tightest]!.remaining) tightest = index;
    return tightest;
  }

  get hasBudgets(): boolean {
    return this.budgets.length > 0;
  }

  /** The most a new hold may be, as far as this node knows: the least room its budgets have, less this call's holds. */
  room(): number {
    return Math.max(0, this.counterRoom + this.inCounters - this.holding);
  }

  /** The 429 a budget answers when an attempt's hold does not fit in it. */
  refusal(): Error {
    const check = this.checks[this.refusedBy ?? this.tightestBudget()]!;
    const wait = seconds(check.endsAtMs! - Date.now());
    this.job.reply.headers({ 'retry-after': String(wait) });
    return relayErrors.rateLimited(limitNames.b, check.key.startsWith('t:') ? 'token' : 'user', wait);
  }

  /**
   * Takes an attempt's hold from every budget at once. False when another call took the room meanwhile:
   * room() then tells what is left (a hold that may be cut is cut to it, else refused with refusal()).
   */
  async take(amount: number): Promise<boolean> {
    const delta = this.holding + amount - this.inCounters;
    const budgetChecks = this.budgets.map((index) => this.checks[index]!);
    const refused = await this.store.holdBudgets(budgetChecks, delta, this.scale);
    if (refused) {
      this.counterRoom = refused.room;
      this.refusedBy = this.budgets[refused.refused]!;
      return false;
    }
    this.counterRoom -= delta;
    this.inCounters += delta;
    this.holding += amount;
    return true;
  }

  /** An attempt's hold given back (refund, or a reservation that failed): the counters learn it at the next step. */
  release(amount: number): void {
    this.holding -= amount;
  }

  /** The call's charge, from its settlement: the real tokens, and the quota each budget adds. */
  noteCharge(quota: number, tokens: number): void {
    this.charged += quota;
    this.usedTokens = (this.usedTokens ?? 0) + tokens;
    for (const index of this.budgets) this.spend.add(this.checks[index]!.key, quota);
  }

  /**
   * Gives back its concurrency slots and settles tokens and budgets, without waiting for Redis (the ends of
   * one event-loop turn go together); never throws (a lost Redis lets leases lapse).
   */
  finish(context: AppContext): void {
    const tokensDelta = (this.usedTokens ?? 0) - this.reserved;
    const budgetDelta = this.charged - this.inCounters;
    this.store
      .finish(this.checks, this.states, this.lease, { tokensDelta, budgetDelta })
      .catch((error: unknown) =>
        context.logger.warn({ err: error }, 'settling a call against its limits failed (its leases lapse)'),
      );
  }
}

/** OpenAI's reset spelling: `1s`, `6m0s`. */
const duration = (ms: number) => {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return total >= 60 ? `${Math.floor(total / 60)}m${total % 60}s` : `${total}s`;
};

/** The tightest check of a kind (least left after this call). */
function tightest(checks: LimitCheck[], states: CheckState[], kind: 'r' | 'k') {
  let best: { check: LimitCheck; state: CheckState } | undefined;
  checks.forEach((check, index) => {
    const state = states[index]!;
    if (check.kind === kind && (!best || state.remaining < best.state.remaining)) best = { check, state };
  });
  return best;
}

/** The rate-limit headers in the front's dialect: Anthropic's on /v1/messages, OpenAI's elsewhere. */
function limitHeaders(job: RelayJob, checks: LimitCheck[], states: CheckState[], scale: number) {
  const headers: Record<string, string> = {};
  const anthropic = job.reply.raw.req.url?.startsWith('/v1/messages') ?? false;
  const now = Date.now();
  for (const [kind, name] of [
    ['r', 'requests'],
    ['k', 'tokens'],
  ] as const) {
    const found = tightest(checks, states, kind);
    if (!found) continue;
    const limit = String(scale === 1 ? found.check.limit : Math.max(1, Math.floor(found.check.limit / scale)));
    const remaining = String(Math.max(0, found.state.remaining));
    if (anthropic) {
      headers[`anthropic-ratelimit-${name}-limit`] = limit;
      headers[`anthropic-ratelimit-${name}-remaining`] = remaining;
      headers[`anthropic-ratelimit-${name}-reset`] = new Date(now + found.state.resetMs).toISOString();
    } else {
      headers[`x-ratelimit-limit-${name}`] = limit;
      headers[`x-ratelimit-remaining-${name}`] = remaining;
      headers[`x-ratelimit-reset-${name}`] = duration(found.state.resetMs);
    }
  }
  return headers;
}

/**
 * Admits a relay call against every limit that applies (limit-plan.ts) in one step, or refuses it with 429
 * and Retry-After. Undefined when no limit applies: nothing is asked of Redis. With Redis configured but not
 * answering, this node enforces its share (limit ÷ live nodes) in memory.
 */
export function admitCall(job: RelayJob): Promise<CallAdmission> | undefined {
  const checks = limitPlanOf(job.context, job.principal.token, job.principal.user, job.model);
  // No limit: no promise either, so a call without limits pays nothing on its way in.
  return checks === undefined ? undefined : admitAgainst(job, checks);
}

async function admitAgainst(job: RelayJob, checks: LimitCheck[]): Promise<CallAdmission> {
  const { context } = job;
  const runtime = limitsRuntime(context);
  const tokens = checks.some((check) => check.kind === 'k') ? reservedTokens(job) : 0;
  const lease = `${job.requestId}:${randomUUID()}`;
  let store: LimitStore = runtime.memory;
  let scale = 1;
  let answer;
  if (runtime.redisStore) {
    refreshLiveNodes(context, runtime);
    if (isRedisReady(context.redis)) {
      try {
        answer = await runtime.redisStore.admit(checks, lease, tokens, 1);
        store = runtime.redisStore;
      } catch (error) {
        context.logger.warn({ err: error }, 'limits: redis failed, enforcing this node’s share');
      }
    }
    if (!answer) scale = runtime.liveNodes;
  }
  answer ??= await store.admit(checks, lease, tokens, scale);
  if (!answer.admitted) {
    const refused = checks[answer.refused]!;
    job.reply.headers({ 'retry-after': String(seconds(answer.retryAfterMs)) });
    throw relayErrors.rateLimited(
      limitNames[refused.kind],
      refused.key.startsWith('t:') ? 'token' : 'user',
      seconds(answer.retryAfterMs),
    );
  }
  job.reply.headers(limitHeaders(job, checks, answer.states, scale));
  const budgets: number[] = [];
  checks.forEach((check, index) => check.kind === 'b' && budgets.push(index));
  const admission = new CallAdmission(store, checks, answer.states, lease, tokens, scale, runtime.spend, budgets, job);
  runtime.open.set(job.requestId, admission);
  return admission;
}

/** Ends an admitted call (in a `finally`): its slots come back, its tokens and charge settle (nothing awaited). */
export function finishCall(job: RelayJob, admission: CallAdmission): void {
  limitsRuntime(job.context).open.delete(job.requestId);
  admission.finish(job.context);
}

/** The budgets an admitted call's attempts hold against (reserve()), if it has any. Costs a lookup. */
export function budgetHoldOf(context: AppContext, requestId: string): BudgetHold | undefined {
  const runtime = runtimes.get(context);
  if (runtime === undefined || runtime.open.size === 0) return undefined;
  const admission = runtime.open.get(requestId);
  return admission?.hasBudgets ? admission : undefined;
}

/** A charge was settled (billing.service.ts): an admitted call with that request id counts it. Costs a lookup. */
export function noteChargeForLimits(
  context: AppContext,
  requestId: string | undefined,
  quota: number,
  tokens: number,
): void {
  const runtime = runtimes.get(context);
  if (runtime === undefined || runtime.open.size === 0 || requestId === undefined) return;
  runtime.open.get(requestId)?.noteCharge(quota, tokens);
}
