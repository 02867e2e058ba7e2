import mysql from 'mysql2/promise';
import pg from 'pg';
import { Redis } from 'ioredis';

/** A database (and cache) combination the API suites run against. */
export interface Engine {
  name: 'sqlite' | 'postgres' | 'mysql';
  /** Also share caches, rate limits and invalidations through Redis. */
  redis: boolean;
  label: string;
}

export const postgresAdminUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const mysqlAdminUrl = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
export const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

/** In CI an unreachable engine fails the run instead of being skipped. */
const requireAll = process.env.MODELGATE_REQUIRE_ENGINES === '1' || process.env.CI === 'true';

async function reachable(name: string, probe: () => Promise<unknown>): Promise<boolean> {
  try {
    await probe();
    return true;
  } catch (error) {
    const message = `${name} is not reachable (${(error as Error).message})`;
    if (requireAll) throw new Error(`${message}; MODELGATE_REQUIRE_ENGINES/CI makes this a failure`);
    console.warn(`skipping the ${name} runs: ${message}`);
    return false;
  }
}

let cached: Promise<Engine[]> | undefined;

/** SQLite always; PostgreSQL (with Redis) and MariaDB/MySQL when they answer. */
export function availableEngines(): Promise<Engine[]> {
  cached ??= (async () => {
    const engines: Engine[] = [{ name: 'sqlite', redis: false, label: 'sqlite' }];
    const postgres = await reachable('PostgreSQL', async () => {
      const client = new pg.Client({ connectionString: postgresAdminUrl, connectionTimeoutMillis: 3000 });
      await client.connect();
      await client.end();
    });
    const redis = await reachable('Redis', async () => {
      const client = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 0 });
      try {
        await client.connect();
        await client.ping();
      } finally {
        client.disconnect();
      }
    });
    if (postgres) engines.push({ name: 'postgres', redis, label: redis ? 'postgres+redis' : 'postgres' });
    const mysqlUp = await reachable('MySQL/MariaDB', async () => {
      const connection = await mysql.createConnection({ uri: mysqlAdminUrl, connectTimeout: 3000 });
      await connection.end();
    });
    if (mysqlUp) engines.push({ name: 'mysql', redis: false, label: 'mysql' });
    return engines;
  })();
  return cached;
}
