import type { Redis } from 'ioredis';
import type { LimitCheck } from './limit-plan.js';
import {
  concurrencyRetryMs,
  scaled,
  windowMs,
  type Admission,
  type CheckState,
  type LimitStore,
  type Settlement,
  type SpentOf,
  type BudgetRefusal,
} from './limit-store.js';

/**
 * The admission, one atomic step on Redis's clock (TIME), so nodes whose clocks differ agree. KEYS are the
 * counters; ARGV: lease id, lease ms, tokens reserved, window ms, then per key its kind, limit and (budgets)
 * its period's end in ms. Every check passes before anything is taken; a refusal answers
 * {0, index, retry ms}, an admission {1, then per key: remaining, reset ms, window start}.
 * - `r`, `k`: a hash {s: window start, n: used}; a window opens at the first call after the last one ended
 *   and lasts 60 s (the hash expires with it).
 * - `c`: a sorted set of lease ids scored by their expiry; expired leases (a dead node's) are dropped first.
 * - `b`: the spend in the period plus the holds of its calls in flight, a plain counter. One that Redis lacks
 *   answers {2, index}: the node rebuilds it from the database (decision 0031) and asks again.
 */
const admitScript = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease, leaseMs, tokens, span = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local function window(key)
  local state = redis.call('HMGET', key, 's', 'n')
  local start, used = tonumber(state[1]), tonumber(state[2])
  if start == nil or now >= start + span then return nil, 0 end
  return start, used
end
for i, key in ipairs(KEYS) do
  local kind, limit = ARGV[2 + 3 * i], tonumber(ARGV[3 + 3 * i])
  if kind == 'c' then
    redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
    if redis.call('ZCARD', key) >= limit then return {0, i, ${concurrencyRetryMs}} end
  elseif kind == 'b' then
    local spent = redis.call('GET', key)
    if not spent then return {2, i, 0} end
    if tonumber(spent) >= limit then return {0, i, tonumber(ARGV[4 + 3 * i]) - now} end
  else
    local start, used = window(key)
    local amount = tokens
    if kind == 'r' then amount = 1 end
    if used + amount > limit then return {0, i, (start or now) + span - now} end
  end
end
local result = {1}
for i, key in ipairs(KEYS) do
  local kind, limit = ARGV[2 + 3 * i], tonumber(ARGV[3 + 3 * i])
  if kind == 'c' then
    redis.call('ZADD', key, now + leaseMs, lease)
    redis.call('PEXPIRE', key, leaseMs * 2)
    table.insert(result, limit - redis.call('ZCARD', key))
    table.insert(result, 0)
    table.insert(result, 0)
  elseif kind == 'b' then
    local ends = tonumber(ARGV[4 + 3 * i])
    table.insert(result, limit - tonumber(redis.call('GET', key) or '0'))
    table.insert(result, ends - now)
    table.insert(result, 0)
  else
    local amount = tokens
    if kind == 'r' then amount = 1 end
    local start, used = window(key)
    if start == nil then
      start = now
      redis.call('HSET', key, 's', start, 'n', amount)
      redis.call('PEXPIRE', key, span)
      used = amount
    else
      used = redis.call('HINCRBY', key, 'n', amount)
    end
    table.insert(result, limit - used)
    table.insert(result, start + span - now)
    table.insert(result, start)
  end
end
return result
`;

/**
 * An attempt's hold on the call's budgets (KEYS), all or none: ARGV the amount, then each budget's cap. A
 * positive amount larger than the least room left answers {0, index, that room}; a counter Redis lacks {2, index}.
 */
const holdScript = `
local amount, least, at = tonumber(ARGV[1]), nil, 0
for i, key in ipairs(KEYS) do
  local used = redis.call('GET', key)
  if not used then return {2, i} end
  local room = tonumber(ARGV[i + 1]) - tonumber(used)
  if least == nil or room < least then least, at = room, i end
end
if amount > 0 and amount > least then return {0, at, least} end
for i, key in ipairs(KEYS) do redis.call('INCRBY', key, amount) end
return {1}
`;

/** Rebuilds budget counters Redis lacks (KEYS), unless another node did first: ARGV per key its spend and life. */
const seedScript = `
for i, key in ipairs(KEYS) do redis.call('SET', key, ARGV[2 * i - 1], 'NX', 'PX', ARGV[2 * i]) end
return 1
`;

/**
 * The end of calls (every call that ended in one turn of the event loop, in one step): their concurrency leases
 * go, the tokens window each was admitted in takes the real count (a later window is left alone), each budget's
 * counter trades the call's holds for its charge (a counter Redis lost is left to be rebuilt from the
 * database). KEYS are every call's keys in a row; ARGV per call: its lease id, its number of keys, then per key
 * its kind, its window start (`k`) and the amount.
 */
const finishScript = `
local at, k = 1, 0
while at <= #ARGV do
  local lease, count = ARGV[at], tonumber(ARGV[at + 1])
  at = at + 2
  for j = 1, count do
    k = k + 1
    local key, kind, mark, amount = KEYS[k], ARGV[at], ARGV[at + 1], tonumber(ARGV[at + 2])
    at = at + 3
    if kind == 'c' then
      redis.call('ZREM', key, lease)
    elseif kind == 'k' then
      if amount ~= 0 and redis.call('HGET', key, 's') == mark then redis.call('HINCRBY', key, 'n', amount) end
    elseif kind == 'b' and amount ~= 0 then
      if redis.call('EXISTS', key) == 1 then redis.call('INCRBY', key, amount) end
    end
  end
end
return 1
`;

/** Extends the leases of calls still running on this node (KEYS: sets, ARGV: lease ms, then one lease per key). */
const renewScript = `
local t = redis.call('TIME')
local expiry = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  if redis.call('ZSCORE', key, ARGV[i + 1]) then redis.call('ZADD', key, expiry, ARGV[i + 1]) end
end
return 1
`;

/**
 * What each counter (KEYS) holds now, read only: ARGV the window ms, then each key's kind. A window that ended
 * holds 0, expired leases do not count, a budget Redis lacks answers -1 (the database tells its spend).
 */
const peekScript = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local span, result = tonumber(ARGV[1]), {}
for i, key in ipairs(KEYS) do
  local kind = ARGV[i + 1]
  if kind == 'c' then
    table.insert(result, redis.call('ZCOUNT', key, '(' .. string.format('%d', now), '+inf'))
  elseif kind == 'b' then
    table.insert(result, tonumber(redis.call('GET', key) or '-1'))
  else
    local state = redis.call('HMGET', key, 's', 'n')
    local start, used = tonumber(state[1]), tonumber(state[2])
    if start == nil or now >= start + span then used = 0 end
    table.insert(result, used)
  end
end
return result
`;

interface LimitCommands {
  limitPeek(keys: number, ...args: (string | number)[]): Promise<number[]>;
  limitAdmit(keys: number, ...args: (string | number)[]): Promise<number[]>;
  limitHold(keys: number, ...args: (string | number)[]): Promise<number[]>;
  limitSeed(keys: number, ...args: (string | number)[]): Promise<number>;
  limitFinish(keys: number, ...args: (string | number)[]): Promise<number>;
  limitRenew(keys: number, ...args: (string | number)[]): Promise<number>;
}

/** The ends of calls of one event-loop turn, sent together. */
interface FinishBatch {
  keys: string[];
  args: (string | number)[];
  done: Promise<void>;
}

/** A budget's counter outlives its period by a day (a late settlement still lands in it). */
const budgetGraceMs = 86_400_000;

/** The counters every node shares, in Redis: exact across nodes. */
export class RedisLimitStore implements LimitStore {
  private readonly commands: LimitCommands;
  /** Concurrency leases of this node's calls in flight: set key → lease ids. */
  private readonly leases = new Map<string, Set<string>>();

  constructor(
    redis: Redis,
    /** A lease not renewed for this long is a dead node's: its slot comes back. */
    private readonly leaseMs: number,
    private readonly spentOf: SpentOf,
  ) {
    redis.defineCommand('limitAdmit', { lua: admitScript });
    redis.defineCommand('limitHold', { lua: holdScript });
    redis.defineCommand('limitSeed', { lua: seedScript });
    redis.defineCommand('limitFinish', { lua: finishScript });
    redis.defineCommand('limitRenew', { lua: renewScript });
    redis.defineCommand('limitPeek', { lua: peekScript });
    this.commands = redis as unknown as LimitCommands;
  }

  async admit(checks: LimitCheck[], lease: string, tokens: number, scale: number): Promise<Admission> {
    const args: (string | number)[] = checks.map((check) => `lim:${check.key}`);
    args.push(lease, this.leaseMs, tokens, windowMs);
    for (const check of checks) args.push(check.kind, scaled(check.limit, scale), check.endsAtMs ?? 0);
    let answer = await this.commands.limitAdmit(checks.length, ...args);
    // A budget's counter Redis lacks (its period's first call, a flush, a new Redis): rebuilt, then asked again.
    for (let round = 0; answer[0] === 2 && round < 3; round++) {
      await this.seed(checks.filter((check) => check.kind === 'b'));
      answer = await this.commands.limitAdmit(checks.length, ...args);
    }
    if (answer[0] === 2) throw new Error('a budget counter could not be rebuilt in Redis');
    if (answer[0] === 0) return { admitted: false, refused: answer[1]! - 1, retryAfterMs: answer[2]! };
    const states = checks.map((check, index): CheckState => {
      if (check.kind === 'c') this.holdLease(check.key, lease);
      const at = 1 + index * 3;
      return { remaining: answer[at]!, resetMs: answer[at + 1]!, window: answer[at + 2]! };
    });
    return { admitted: true, states };
  }

  async holdBudgets(checks: LimitCheck[], amount: number): Promise<BudgetRefusal | undefined> {
    const args: (string | number)[] = checks.map((check) => `lim:${check.key}`);
    args.push(amount);
    for (const check of checks) args.push(check.limit);
    let answer = await this.commands.limitHold(checks.length, ...args);
    if (answer[0] === 2) {
      await this.seed(checks);
      answer = await this.commands.limitHold(checks.length, ...args);
    }
    if (answer[0] === 1) return undefined;
    if (answer[0] === 0) return { refused: answer[1]! - 1, room: answer[2]! };
    throw new Error('a budget counter could not be rebuilt in Redis');
  }

  /** Sets each budget's counter to the spend the database has, where Redis has none (SET NX: the first wins). */
  private async seed(budgets: LimitCheck[]): Promise<void> {
    const spent = await Promise.all(budgets.map((check) => this.spentOf(check.key)));
    const args: (string | number)[] = budgets.map((check) => `lim:${check.key}`);
    budgets.forEach((check, index) =>
      args.push(spent[index]!, Math.max(check.endsAtMs! - Date.now(), 0) + budgetGraceMs),
    );
    await this.commands.limitSeed(budgets.length, ...args);
  }

  /**
   * Queues the call's end; the ends of one event-loop turn go to Redis together in one script. The promise
   * settles with that script (callers need not wait: a slot not yet given back only refuses a call early).
   */
  finish(checks: LimitCheck[], states: CheckState[], lease: string, settlement: Settlement): Promise<void> {
    const batch = (this.finishing ??= this.nextFinishBatch());
    batch.args.push(lease, checks.length);
    checks.forEach((check, index) => {
      batch.keys.push(`lim:${check.key}`);
      if (check.kind === 'c') this.leases.get(check.key)?.delete(lease);
      if (check.kind === 'k') batch.args.push('k', states[index]!.window, settlement.tokensDelta);
      else if (check.kind === 'b') batch.args.push('b', 0, settlement.budgetDelta);
      else batch.args.push(check.kind, 0, 0);
    });
    return batch.done;
  }

  private finishing: FinishBatch | undefined;

  private nextFinishBatch(): FinishBatch {
    const batch = { keys: [], args: [] } as unknown as FinishBatch;
    batch.done = new Promise<void>((resolve, reject) =>
      setImmediate(() => {
        this.finishing = undefined;
        this.commands.limitFinish(batch.keys.length, ...batch.keys, ...batch.args).then(() => resolve(), reject);
      }),
    );
    return batch;
  }

  async peek(checks: LimitCheck[]): Promise<number[]> {
    if (checks.length === 0) return [];
    const keys = checks.map((check) => `lim:${check.key}`);
    const answer = await this.commands.limitPeek(
      checks.length,
      ...keys,
      windowMs,
      ...checks.map((check) => check.kind),
    );
    return Promise.all(answer.map((used, index) => (used < 0 ? this.spentOf(checks[index]!.key) : used)));
  }

  /** Renews the leases of this node's calls in flight (every third of the lease time). */
  async renew(): Promise<void> {
    const keys: string[] = [];
    const ids: string[] = [];
    for (const [key, leases] of this.leases) {
      if (leases.size === 0) this.leases.delete(key);
      for (const lease of leases) {
        keys.push(`lim:${key}`);
        ids.push(lease);
      }
    }
    if (keys.length > 0) await this.commands.limitRenew(keys.length, ...keys, this.leaseMs, ...ids);
  }

  private holdLease(key: string, lease: string): void {
    let leases = this.leases.get(key);
    if (!leases) this.leases.set(key, (leases = new Set()));
    leases.add(lease);
  }
}
