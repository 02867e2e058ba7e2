import type { Redis } from 'ioredis';
import pino, { type Logger } from 'pino';
import { LocalCache } from './cache/local-cache.js';
import { LocalBus, RedisBus, type InvalidationBus } from './cache/invalidation-bus.js';
import { closeRedis, connectRedis } from './cache/redis-connection.js';
import type { Config } from './config/env.js';
import { openDatabase, refreshPlannerStatistics, type DatabaseHandle } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { ensureLogTable } from './db/migrations/2026_11_21_0600_create_tables.js';
import { ensureLogRollups } from './db/migrations/2026_11_25_1100_create_log_rollups.js';
import { ensureLogListIndexes } from './db/migrations/2026_11_25_1200_log_list_indexes.js';
import { ensureLogOffsetIndex } from './db/migrations/2026_11_25_1500_log_offset_index.js';
import { ensureLogOtherColumn } from './db/migrations/2026_11_26_0900_add_log_other.js';
import type { TokenRow, UserRow } from './db/tables.js';
import { Mailer } from './domain/mail/mailer.js';
import { OptionStore } from './domain/option/option.store.js';
import { bootstrapRoot } from './domain/user/root-bootstrap.js';

/** The in-process caches of rows read on every request; each is emptied by its bus topic. */
export interface Caches {
  /** user id → user row */
  users: LocalCache<UserRow | null>;
  /** access token → user id (0 when unknown, kept apart: see missLimits) */
  accessTokens: LocalCache<number>;
  /** relay key (without `sk-`) → token row (null when unknown, kept apart: see missLimits) */
  tokens: LocalCache<TokenRow | null>;
}

/**
 * Keys that found nothing: anyone can send random ones, so they are kept apart from the rows, few and briefly
 * (decision 0003). A key tried again within a minute costs no query; a flood of new ones costs one each.
 */
const missLimits = { ttlMs: 60_000, maxEntries: 10_000 };

/** Everything a request handler or job may need, created once per process (or per test server). */
export interface AppContext {
  readonly config: Config;
  readonly logger: Logger;
  readonly database: DatabaseHandle;
  /** The database holding `logs`: the main one unless LOG_SQL_DSN is set. */
  readonly logDatabase: DatabaseHandle;
  readonly redis: Redis | null;
  readonly bus: InvalidationBus;
  readonly options: OptionStore;
  readonly caches: Caches;
  readonly mailer: Mailer;
  /** Work to finish before the process exits (batched writes), run in order by closeContext. */
  readonly shutdownTasks: (() => Promise<void>)[];
}

/** Opens the databases, migrates (master only), loads options, connects Redis and bootstraps root. */
export async function createContext(
  config: Config,
  logger: Logger = pino({ level: config.LOG_LEVEL }),
): Promise<AppContext> {
  const databaseOptions = {
    sqlitePath: config.SQLITE_PATH,
    sqliteBusyTimeoutMs: config.SQLITE_BUSY_TIMEOUT,
    maxConnections: config.SQL_MAX_OPEN_CONNS,
    logger,
  };
  const database = await openDatabase(config.SQL_DSN, databaseOptions);
  const logDatabase = config.LOG_SQL_DSN ? await openDatabase(config.LOG_SQL_DSN, databaseOptions) : database;
  if (config.isMaster) {
    await migrateToLatest(database.db, database.dialect);
    if (logDatabase !== database) {
      await ensureLogTable(logDatabase.db, logDatabase.dialect);
      await ensureLogRollups(logDatabase.db, logDatabase.dialect);
      await ensureLogListIndexes(logDatabase.db, logDatabase.dialect, { dropSuperseded: false });
      await ensureLogOffsetIndex(logDatabase.db, logDatabase.dialect);
      await ensureLogOtherColumn(logDatabase.db, logDatabase.dialect);
    }
    if (database.sqlite) refreshPlannerStatistics(database.sqlite);
  }
  let redis: Redis | null = null;
  let bus: InvalidationBus = new LocalBus();
  if (config.redisEnabled) {
    // A node starts even while Redis is down (degraded, see connectRedis) and reconnects in the background.
    redis = await connectRedis(config.REDIS_CONN_STRING, config.REDIS_KEY_PREFIX, logger);
    bus = await RedisBus.connect(redis, `${config.REDIS_KEY_PREFIX}invalidate`, logger);
  }
  const options = new OptionStore();
  await options.reload(database.db);
  const ttlMs = Math.max(config.SYNC_FREQUENCY, 1) * 1000;
  const misses = { ...missLimits, ttlMs: Math.min(missLimits.ttlMs, ttlMs) };
  const caches: Caches = {
    users: new LocalCache(ttlMs),
    accessTokens: new LocalCache(ttlMs, undefined, { isMiss: (userId) => userId === 0, ...misses }),
    tokens: new LocalCache(ttlMs, undefined, { isMiss: (token) => token === null, ...misses }),
  };
  bus.subscribe(({ topic, key }) => {
    if (topic === 'user') caches.users.delete(key);
    if (topic === 'access-token') caches.accessTokens.delete(key);
    if (topic === 'token') caches.tokens.delete(key);
    if (topic === 'resync') for (const cache of [caches.users, caches.accessTokens, caches.tokens]) cache.clear();
    if (topic === 'options')
      void options.reload(database.db).catch((error: unknown) => logger.error({ error }, 'option reload failed'));
  });
  if (await bootstrapRoot(database.db, config))
    logger.warn('created the root user root / 123456: change its password now');
  return {
    config,
    logger,
    database,
    logDatabase,
    redis,
    bus,
    options,
    caches,
    mailer: new Mailer(options),
    shutdownTasks: [],
  };
}

/** Runs the shutdown tasks, then closes Redis and the databases. */
export async function closeContext(context: AppContext): Promise<void> {
  for (const task of context.shutdownTasks) await task();
  await context.bus.close();
  if (context.redis) await closeRedis(context.redis);
  if (context.logDatabase !== context.database) await context.logDatabase.close();
  await context.database.close();
}
