import type { UsagePoint } from '@modelgate/wire';
import { SqliteAdapter, sql, type ExpressionBuilder } from 'kysely';
import type { DialectName } from '../../db/connect.js';
import type { Database, Db, LogRollupTable } from '../../db/tables.js';
import type { LogRow } from './log.writer.js';
import { LogType } from './log.constants.js';
import { logFilter, type LogFilters } from './log.repository.js';

export type { UsagePoint };

const hourSeconds = 3600;
const hourOf = (seconds: number) => seconds - (seconds % hourSeconds);

/** One row's worth of additions to `log_rollups` (its columns: the key and the sums). */
export type RollupDelta = LogRollupTable;

/** One row's worth of additions to `log_rollups_by_model`. */
export type ModelRollupDelta = Omit<RollupDelta, 'user_id' | 'username' | 'token_name'>;

export interface Rollups {
  /** Per hour × user × token × model × channel. */
  detail: RollupDelta[];
  /** Per hour × model × channel. */
  byModel: ModelRollupDelta[];
}

/** The rollup rows a batch of log rows adds to (its consume logs, summed), each list in key order. */
export function rollupsOf(logs: readonly LogRow[]): Rollups {
  const detail = detailRollupsOf(logs);
  const byModel = new Map<string, ModelRollupDelta>();
  for (const delta of detail) {
    const key = `${delta.hour}\u0000${delta.model_name}\u0000${delta.channel_id}`;
    let sum = byModel.get(key);
    if (!sum) {
      sum = {
        hour: delta.hour,
        model_name: delta.model_name,
        channel_id: delta.channel_id,
        calls: 0,
        quota: 0,
        prompt_tokens: 0,
        completion_tokens: 0,
        elapsed_ms: 0,
      };
      byModel.set(key, sum);
    }
    for (const column of summed) sum[column] += delta[column];
  }
  return { detail, byModel: [...byModel.entries()].sort(byKey).map(([, delta]) => delta) };
}

const byKey = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

function detailRollupsOf(logs: readonly LogRow[]): RollupDelta[] {
  const deltas = new Map<string, RollupDelta>();
  for (const log of logs) {
    if (log.type !== LogType.Consume) continue;
    const hour = hourOf(log.created_at);
    const key = `${hour}\u0000${log.user_id}\u0000${log.username}\u0000${log.token_name}\u0000${log.model_name}\u0000${log.channel_id}`;
    let delta = deltas.get(key);
    if (!delta) {
      delta = {
        hour,
        user_id: log.user_id,
        username: log.username,
        token_name: log.token_name,
        model_name: log.model_name,
        channel_id: log.channel_id,
        calls: 0,
        quota: 0,
        prompt_tokens: 0,
        completion_tokens: 0,
        elapsed_ms: 0,
      };
      deltas.set(key, delta);
    }
    delta.calls += 1;
    delta.quota += log.quota;
    delta.prompt_tokens += log.prompt_tokens;
    delta.completion_tokens += log.completion_tokens;
    delta.elapsed_ms += log.elapsed_time;
  }
  // One order for every writer, so concurrent upserts on PostgreSQL and MySQL take row locks alike.
  return [...deltas.entries()].sort(byKey).map(([, delta]) => delta);
}

const summed = ['calls', 'quota', 'prompt_tokens', 'completion_tokens', 'elapsed_ms'] as const;
const detailKey = ['hour', 'user_id', 'username', 'token_name', 'model_name', 'channel_id'] as const;
const modelKey = ['hour', 'model_name', 'channel_id'] as const;
const tables = [
  { table: 'log_rollups', key: detailKey },
  { table: 'log_rollups_by_model', key: modelKey },
] as const;

const sqliteUpsert = (table: string, key: readonly string[]) => {
  const columns = [...key, ...summed];
  return `insert into "${table}" (${columns.map((column) => `"${column}"`).join(', ')})
  values (${columns.map(() => '?').join(', ')})
  on conflict (${key.map((column) => `"${column}"`).join(', ')}) do update set
  ${summed.map((column) => `"${column}" = "${column}" + excluded."${column}"`).join(', ')}`;
};

/** SQLite's upserts of one delta of each table, for the settlement's synchronous transaction (positional parameters). */
export const sqliteRollupUpserts = {
  detail: sqliteUpsert('log_rollups', detailKey),
  byModel: sqliteUpsert('log_rollups_by_model', modelKey),
};
export const detailValues = (delta: RollupDelta) => [...detailKey, ...summed].map((column) => delta[column]);
export const modelValues = (delta: ModelRollupDelta) => [...modelKey, ...summed].map((column) => delta[column]);

/** Adds deltas to both rollup tables (in the log database, or a transaction on it). */
export async function addRollups(db: Db, dialect: DialectName, rollups: Rollups): Promise<void> {
  const lists = [
    { table: 'log_rollups' as const, key: detailKey, rows: rollups.detail },
    { table: 'log_rollups_by_model' as const, key: modelKey, rows: rollups.byModel },
  ];
  for (const { table, key, rows } of lists)
    for (let start = 0; start < rows.length; start += 200) {
      const insert = db.insertInto(table).values(rows.slice(start, start + 200) as never);
      if (dialect === 'mysql')
        await insert
          .onDuplicateKeyUpdate(
            Object.fromEntries(summed.map((column) => [column, sql`${sql.ref(column)} + values(${sql.ref(column)})`])),
          )
          .execute();
      else
        await insert
          .onConflict((conflict) =>
            conflict
              .columns([...key] as never)
              .doUpdateSet(
                Object.fromEntries(
                  summed.map((column) => [
                    column,
                    sql`${sql.ref(`${table}.${column}`)} + ${sql.ref(`excluded.${column}`)}`,
                  ]),
                ) as never,
              ),
          )
          .execute();
    }
}

/** Logs below this many ids go into one background step (one transaction, a few milliseconds on SQLite). */
const backfillSlice = 5000;

/**
 * One step of rolling up the logs that were there before the rollups (a migrated one-api install, a
 * restore): the next slice of ids below the cursor, summed into `log_rollups` with the cursor and the
 * frontier moved in the same transaction. Newest first, so recent ranges turn fast first. Answers whether
 * everything is rolled up.
 */
export async function backfillStep(db: Db, dialect: DialectName): Promise<boolean> {
  return db.transaction().execute(async (transaction) => {
    const state = await transaction.selectFrom('log_rollup_state').selectAll().where('id', '=', 1).executeTakeFirst();
    if (!state || Number(state.frontier) === 0) return true;
    const first = await transaction
      .selectFrom('logs')
      .select(sql<number>`min(id)`.as('id'))
      .executeTakeFirst();
    const lowest = Number(first?.id ?? 0);
    const high = Number(state.cursor_id);
    if (!lowest || high <= lowest) {
      await transaction
        .updateTable('log_rollup_state')
        .set({ cursor_id: lowest, frontier: 0 })
        .where('id', '=', 1)
        .execute();
      return true;
    }
    const low = Math.max(lowest, high - backfillSlice);
    const hour = sql`(${sql.ref('created_at')} - (${sql.ref('created_at')} % ${sql.lit(hourSeconds)}))`;
    for (const { table, key } of tables) {
      const grouped = sql.join(key.map((column) => (column === 'hour' ? hour : sql.ref(column))));
      const select = sql`select ${grouped}, count(*), sum(quota), sum(prompt_tokens), sum(completion_tokens), sum(elapsed_time)
        from logs where id >= ${low} and id < ${high} and type = ${LogType.Consume} group by ${grouped}`;
      const target = sql.raw(`${table} (${[...key, ...summed].join(', ')})`);
      const onConflict =
        dialect === 'mysql'
          ? sql.raw(
              `on duplicate key update ${summed.map((column) => `${column} = ${column} + values(${column})`).join(', ')}`,
            )
          : sql.raw(
              `on conflict (${key.join(', ')}) do update set ${summed.map((column) => `${column} = ${table}.${column} + excluded.${column}`).join(', ')}`,
            );
      await sql`insert into ${target} ${select} ${onConflict}`.execute(transaction);
    }
    const oldest = await transaction
      .selectFrom('logs')
      .select(sql<number>`min(created_at)`.as('created_at'))
      .where('id', '>=', low)
      .where('id', '<', high)
      .executeTakeFirst();
    // Hours from the slice's oldest hour + 2 on are complete: ids grow with time, give or take a node's clock.
    const frontier =
      low === lowest
        ? 0
        : Math.min(Number(state.frontier), hourOf(Number(oldest?.created_at ?? state.frontier)) + 2 * hourSeconds);
    await transaction.updateTable('log_rollup_state').set({ cursor_id: low, frontier }).where('id', '=', 1).execute();
    return frontier === 0;
  });
}

/** Hours from this one on are fully in `log_rollups`; earlier ones are read from the logs. */
async function rollupFrontier(db: Db): Promise<number> {
  const state = await db.selectFrom('log_rollup_state').select('frontier').where('id', '=', 1).executeTakeFirst();
  return state ? Number(state.frontier) : Number.MAX_SAFE_INTEGER;
}

/**
 * The rollups that answer the filters, filtered: per model and channel when neither a user nor a token is
 * asked for (dozens of rows an hour), else per user and token. Both have every column read below.
 */
function rollupRows(db: Db, filters: LogFilters) {
  const perUser = filters.userId !== undefined || Boolean(filters.username) || Boolean(filters.tokenName);
  const table = (perUser ? 'log_rollups' : 'log_rollups_by_model') as 'log_rollups';
  return db.selectFrom(table).where(rollupFilter(filters));
}

function rollupFilter(filters: LogFilters) {
  return (eb: ExpressionBuilder<Database, 'log_rollups'>) => {
    const conditions = [];
    if (filters.userId !== undefined) conditions.push(eb('user_id', '=', filters.userId));
    if (filters.username) conditions.push(eb('username', '=', filters.username));
    if (filters.tokenName) conditions.push(eb('token_name', '=', filters.tokenName));
    if (filters.modelName) conditions.push(eb('model_name', '=', filters.modelName));
    if (filters.channel) conditions.push(eb('channel_id', '=', filters.channel));
    return eb.and(conditions);
  };
}

interface Plan {
  /** Whole hours [from, to) read from the rollups. */
  rollupHours: { from: number; to: number } | null;
  /** Inclusive second ranges read from the logs. */
  rawRanges: [number, number][];
}

/**
 * Splits [start, end] into the whole hours the rollups hold (complete ones, from the frontier on) and the
 * edges read from the raw logs; `straddling` hours (a chart bucket boundary inside them) go raw too.
 */
function plan(start: number, end: number, frontier: number, straddling?: (hour: number) => boolean): Plan {
  const from = Math.max(start + ((hourSeconds - (start % hourSeconds)) % hourSeconds), frontier);
  const to = hourOf(end + 1);
  if (from >= to) return { rollupHours: null, rawRanges: [[start, end]] };
  const rawRanges: [number, number][] = [];
  if (start < from) rawRanges.push([start, from - 1]);
  if (straddling)
    for (let hour = from; hour < to; hour += hourSeconds)
      if (straddling(hour)) rawRanges.push([hour, hour + hourSeconds - 1]);
  if (to <= end) rawRanges.push([to, end]);
  return { rollupHours: { from, to }, rawRanges };
}

/**
 * The filters of a raw-edge read: the consume logs of a few short time ranges. On SQLite, whose planner has
 * no statistics to go by, every filter column but created_at is written `+column`, which keeps it out of
 * index choice: the edges are small, and `type = 2` (nearly every log) or one busy user's id would otherwise
 * send the read down an index over millions of rows (a second at 10 million logs). Other engines estimate
 * from statistics and get the plain filter.
 */
function edgeFilter(db: Db, filters: LogFilters) {
  const all = { ...filters, type: LogType.Consume, startTimestamp: undefined, endTimestamp: undefined };
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return logFilter(all);
  return (eb: ExpressionBuilder<Database, 'logs'>) => {
    const unindexed = (column: 'user_id' | 'type' | 'username' | 'token_name' | 'model_name' | 'channel_id') =>
      sql`+${sql.ref(column)}`;
    const conditions = [eb(unindexed('type'), '=', LogType.Consume)];
    if (all.userId !== undefined) conditions.push(eb(unindexed('user_id'), '=', all.userId));
    if (all.username) conditions.push(eb(unindexed('username'), '=', all.username));
    if (all.tokenName) conditions.push(eb(unindexed('token_name'), '=', all.tokenName));
    if (all.modelName) conditions.push(eb(unindexed('model_name'), '=', all.modelName));
    if (all.channel) conditions.push(eb(unindexed('channel_id'), '=', all.channel));
    return eb.and(conditions);
  };
}

const inRanges = (ranges: [number, number][]) => (eb: ExpressionBuilder<Database, 'logs'>) =>
  eb.or(ranges.map(([from, to]) => eb.and([eb('created_at', '>=', from), eb('created_at', '<=', to)])));

export interface ConsumptionTotals {
  calls: number;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
}

/** The consume logs' totals for the filters (type ignored), from the rollups and at most two raw edges. */
export async function consumptionTotals(db: Db, filters: LogFilters): Promise<ConsumptionTotals> {
  const start = filters.startTimestamp || 0;
  const end = filters.endTimestamp || Number.MAX_SAFE_INTEGER;
  const { rollupHours, rawRanges } = plan(start, end, await rollupFrontier(db));
  const totals: ConsumptionTotals = { calls: 0, quota: 0, prompt_tokens: 0, completion_tokens: 0 };
  const add = (row: Record<string, unknown> | undefined) => {
    for (const key of ['calls', 'quota', 'prompt_tokens', 'completion_tokens'] as const)
      totals[key] += Number(row?.[key] ?? 0);
  };
  if (rollupHours)
    add(
      await rollupRows(db, filters)
        .select((eb) => [
          eb.fn.sum<number>('calls').as('calls'),
          eb.fn.sum<number>('quota').as('quota'),
          eb.fn.sum<number>('prompt_tokens').as('prompt_tokens'),
          eb.fn.sum<number>('completion_tokens').as('completion_tokens'),
        ])
        .where('hour', '>=', rollupHours.from)
        .where('hour', '<', rollupHours.to)
        .executeTakeFirst(),
    );
  if (rawRanges.length > 0)
    add(
      await db
        .selectFrom('logs')
        .select((eb) => [
          eb.fn.countAll<number>().as('calls'),
          eb.fn.sum<number>('quota').as('quota'),
          eb.fn.sum<number>('prompt_tokens').as('prompt_tokens'),
          eb.fn.sum<number>('completion_tokens').as('completion_tokens'),
        ])
        .where(edgeFilter(db, filters))
        .where(inRanges(rawRanges))
        .executeTakeFirst(),
    );
  return totals;
}

/**
 * Consumption per bucket of `width` seconds and model, buckets starting at midnight (or the hour) of the
 * viewer's zone (`utcOffsetSeconds`), over [start, end]. Whole hours come from the rollups; the edges, and
 * the hours a bucket boundary cuts (zones a half or three quarters of an hour off), from the logs. Buckets
 * are integer arithmetic on timestamps, so every engine agrees.
 */
export async function consumptionSeries(
  db: Db,
  filters: LogFilters & { startTimestamp: number; endTimestamp: number },
  width: number,
  utcOffsetSeconds = 0,
): Promise<UsagePoint[]> {
  const offset = Math.trunc(utcOffsetSeconds);
  // A bucket boundary falls inside an hour when the hour's position in its bucket leaves it less than an hour.
  const shift = ((offset % width) + width) % width;
  const straddling = (hour: number) => ((hour + shift) % width) + hourSeconds > width;
  // Hourly buckets in a zone off the hour cut every hour: the logs answer alone.
  const frontier = width === hourSeconds && shift !== 0 ? Number.MAX_SAFE_INTEGER : await rollupFrontier(db);
  const { rollupHours, rawRanges } = plan(
    filters.startTimestamp,
    filters.endTimestamp,
    frontier,
    shift % hourSeconds === 0 ? undefined : straddling,
  );
  const points = new Map<string, UsagePoint>();
  const add = (
    rows: {
      time: unknown;
      model_name: string | null;
      quota: unknown;
      requests: unknown;
      prompt_tokens: unknown;
      completion_tokens: unknown;
    }[],
  ) => {
    for (const row of rows) {
      const time = Number(row.time);
      const model = row.model_name ?? '';
      const key = `${time}\u0000${model}`;
      let point = points.get(key);
      if (!point)
        points.set(
          key,
          (point = { time, model_name: model, quota: 0, requests: 0, prompt_tokens: 0, completion_tokens: 0 }),
        );
      point.quota += Number(row.quota ?? 0);
      point.requests += Number(row.requests ?? 0);
      point.prompt_tokens += Number(row.prompt_tokens ?? 0);
      point.completion_tokens += Number(row.completion_tokens ?? 0);
    }
  };
  const bucketOf = (column: 'hour' | 'created_at') => {
    // Literals, not parameters: PostgreSQL must see the same expression in SELECT and GROUP BY.
    const shifted = sql`(${sql.ref(column)} + ${sql.lit(shift)})`;
    return sql<number>`(${shifted} - (${shifted} % ${sql.lit(width)}) - ${sql.lit(shift)})`;
  };
  if (rollupHours) {
    const bucket = bucketOf('hour');
    add(
      await rollupRows(db, filters)
        .select((eb) => [
          bucket.as('time'),
          'model_name',
          eb.fn.sum<number>('quota').as('quota'),
          eb.fn.sum<number>('calls').as('requests'),
          eb.fn.sum<number>('prompt_tokens').as('prompt_tokens'),
          eb.fn.sum<number>('completion_tokens').as('completion_tokens'),
        ])
        .where('hour', '>=', rollupHours.from)
        .where('hour', '<', rollupHours.to)
        .where(
          sql<boolean>`((${sql.ref('hour')} + ${sql.lit(shift)}) % ${sql.lit(width)}) + ${sql.lit(hourSeconds)} <= ${sql.lit(width)}`,
        )
        .groupBy([bucket, 'model_name'])
        .execute(),
    );
  }
  if (rawRanges.length > 0) {
    const bucket = bucketOf('created_at');
    add(
      await db
        .selectFrom('logs')
        .select((eb) => [
          bucket.as('time'),
          'model_name',
          eb.fn.sum<number>('quota').as('quota'),
          eb.fn.countAll<number>().as('requests'),
          eb.fn.sum<number>('prompt_tokens').as('prompt_tokens'),
          eb.fn.sum<number>('completion_tokens').as('completion_tokens'),
        ])
        .where(edgeFilter(db, filters))
        .where(inRanges(rawRanges))
        .groupBy([bucket, 'model_name'])
        .execute(),
    );
  }
  return [...points.values()].sort(
    (a, b) => a.time - b.time || (a.model_name < b.model_name ? -1 : a.model_name > b.model_name ? 1 : 0),
  );
}
