import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import pg from 'pg';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/env.js';
import { closeContext, createContext, type AppContext } from '../src/context.js';
import { ApiClient } from './api-client.js';
import { mysqlAdminUrl, postgresAdminUrl, redisUrl, type Engine } from './engines.js';

export interface TestServer {
  url: string;
  app: FastifyInstance;
  context: AppContext;
  /** A client signed in as nobody; `login` it or use `rootClient`. */
  client(accessToken?: string): ApiClient;
  /** A client signed in as root (root / 123456). */
  rootClient(): Promise<ApiClient>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  engine?: Engine;
  env?: Record<string, string>;
  /** Reuse the database of another test server (two nodes sharing one database). */
  shareDatabaseWith?: TestServer;
}

export interface FreshDatabase {
  env: Record<string, string>;
  drop(): Promise<void>;
}

/** A new, empty database for one server: a temp SQLite file, or a fresh PostgreSQL/MySQL database. */
export async function freshDatabase(engine: Engine): Promise<FreshDatabase> {
  const name = `mg_test_${randomBytes(6).toString('hex')}`;
  if (engine.name === 'postgres') {
    const admin = new pg.Client({ connectionString: postgresAdminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(postgresAdminUrl);
    url.pathname = `/${name}`;
    return {
      env: { SQL_DSN: url.toString() },
      drop: async () => {
        const client = new pg.Client({ connectionString: postgresAdminUrl });
        await client.connect();
        try {
          // pg's pool.end() resolves while its idle connections are still closing; forcing the drop at once
          // kills them mid-close and their FATAL 57P01 surfaces as an unhandled error. Wait for them first.
          for (let attempt = 0; ; attempt++) {
            try {
              await client.query(`drop database if exists ${name}`);
              break;
            } catch {
              if (attempt >= 30) {
                await client.query(`drop database if exists ${name} with (force)`);
                break;
              }
              await new Promise((resolve) => setTimeout(resolve, 100));
            }
          }
        } finally {
          await client.end();
        }
      },
    };
  }
  if (engine.name === 'mysql') {
    const admin = await mysql.createConnection({ uri: mysqlAdminUrl });
    await admin.query(`create database ${name} character set utf8mb4`);
    await admin.end();
    const url = new URL(mysqlAdminUrl);
    url.pathname = `/${name}`;
    return {
      env: { SQL_DSN: url.toString() },
      drop: async () => {
        const client = await mysql.createConnection({ uri: mysqlAdminUrl });
        await client.query(`drop database if exists ${name}`);
        await client.end();
      },
    };
  }
  const directory = mkdtempSync(join(tmpdir(), 'modelgate-test-'));
  return {
    env: { SQLITE_PATH: join(directory, 'modelgate.db') },
    drop: async () => rmSync(directory, { recursive: true, force: true }),
  };
}

const sharedDatabases = new WeakMap<TestServer, FreshDatabase>();

/** Starts the real server on 127.0.0.1 with a random port and a database of its own. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const engine = options.engine ?? { name: 'sqlite', redis: false, label: 'sqlite' };
  const database = options.shareDatabaseWith
    ? sharedDatabases.get(options.shareDatabaseWith)!
    : await freshDatabase(engine);
  const redisPrefix =
    options.shareDatabaseWith?.context.config.REDIS_KEY_PREFIX ?? `mgtest:${randomBytes(4).toString('hex')}:`;
  const config = loadConfig({
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    SESSION_SECRET: 'test-session-secret-0123456789abcdef',
    GLOBAL_API_RATE_LIMIT: '100000',
    GLOBAL_WEB_RATE_LIMIT: '100000',
    CRITICAL_RATE_LIMIT: '100000',
    ...(engine.redis ? { REDIS_CONN_STRING: redisUrl, REDIS_KEY_PREFIX: redisPrefix } : {}),
    ...database.env,
    ...options.env,
  });
  const context = await createContext(config, pino({ level: config.LOG_LEVEL }));
  const app = await buildApp(context);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  const server: TestServer = {
    url,
    app,
    context,
    client: (accessToken) => new ApiClient(url, accessToken),
    async rootClient() {
      const client = new ApiClient(url);
      await client.login('root', '123456');
      return client;
    },
    async close() {
      await app.close();
      await closeContext(context);
      if (!options.shareDatabaseWith) await database.drop();
    },
  };
  sharedDatabases.set(server, database);
  return server;
}
