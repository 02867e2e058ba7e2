import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { isRedisReady } from '../../cache/redis-connection.js';
import type { AppContext } from '../../context.js';
import { databaseSeconds } from '../../db/database-clock.js';
import { abandonedAfterSeconds } from '../billing/reservation-sweeper.js';
import type { RelayJob } from '../pipeline/relay-job.js';
import { relayErrors } from '../relay-errors.js';
import { countInput, countMessages } from '../tokenizer/count-tokens.js';
import { limitPlanOf, type LimitCheck } from './limit-plan.js';
import { MemoryLimitStore, type CheckState, type LimitStore } from './limit-store.js';
import { RedisLimitStore } from './redis-limit-store.js';

/**
 * How this node enforces limits now: `redis` (exact across nodes), `shared` (Redis is configured but lost:
 * each node enforces its share, limit ÷ live nodes, in memory) or `node` (no Redis: this node alone).
 */
export type LimitsMode = 'redis' | 'shared' | 'node';

/** A concurrency lease lasts this long unless its node renews it (every third of it while the call runs). */
const leaseMs = 30_000;

interface LimitsRuntime {
  redisStore: RedisLimitStore | null;
  memory: MemoryLimitStore;
  /** Live nodes (heartbeats in `relay_nodes`), read now and then; at least 1. */
  liveNodes: number;
  liveNodesReadAt: number;
  /** Calls admitted and not yet finished, by request id: their settlement adds the charge and the real tokens. */
  open: Map<string, CallAdmission>;
}

const runtimes = new WeakMap<AppContext, LimitsRuntime>();

function limitsRuntime(context: AppContext): LimitsRuntime {
  let runtime = runtimes.get(context);
  if (runtime) return runtime;
  const redisStore = context.redis ? new RedisLimitStore(context.redis, leaseMs) : null;
  runtime = { redisStore, memory: new MemoryLimitStore(), liveNodes: 1, liveNodesReadAt: 0, open: new Map() };
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
  const body = job.body.value;
  const prompt =
    job.mode === 'chat'
      ? countMessages(body.messages, job.model, true)
      : countInput(job.mode === 'completions' ? body.prompt : body.input, job.model, true);
  return prompt + clientOutputCap(body);
}

/** One admitted call: what it holds, given back by `finish` (completion, client abort, failure). */
export class CallAdmission {
  private charged = 0;
  private usedTokens: number | undefined;

  constructor(
    private readonly store: LimitStore,
    private readonly checks: LimitCheck[],
    private readonly states: CheckState[],
    private readonly lease: string,
    private readonly reserved: number,
  ) {}

  /** The call's charge, from its settlement: the real tokens, and the quota each budget adds. */
  noteCharge(quota: number, tokens: number): void {
    this.charged += quota;
    this.usedTokens = (this.usedTokens ?? 0) + tokens;
  }

  /** Gives back its concurrency slots and settles tokens and budgets; never throws (a lost Redis lets leases lapse). */
  async finish(context: AppContext): Promise<void> {
    const tokensDelta = (this.usedTokens ?? 0) - this.reserved;
    try {
      await this.store.finish(this.checks, this.states, this.lease, { tokensDelta, charged: this.charged });
    } catch (error) {
      context.logger.warn({ err: error }, 'settling a call against its limits failed (its leases lapse)');
    }
  }
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

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

const limitNames = { r: 'requests per minute', k: 'tokens per minute', c: 'calls in flight', b: 'budget' };

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
  const admission = new CallAdmission(store, checks, answer.states, lease, tokens);
  runtime.open.set(job.requestId, admission);
  return admission;
}

/** Ends an admitted call (in a `finally`): its slots come back, its tokens and charge settle. */
export async function finishCall(job: RelayJob, admission: CallAdmission): Promise<void> {
  limitsRuntime(job.context).open.delete(job.requestId);
  await admission.finish(job.context);
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
