import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, test } from 'vitest';
import { ApiClient } from '../../test/api-client.js';
import { availableEngines, redisUrl } from '../../test/engines.js';
import { MockOpenAIUpstream } from '../../test/mock-openai-upstream.js';
import { startNodeProcess, type NodeProcess } from '../../test/node-process.js';
import { StartupScope, addChannel, chat, eventually, rootSecrets } from '../../test/startup-kit.js';
import { openDatabase } from '../db/connect.js';

/**
 * The start-up matrix: the real entry point (`src/main.ts`) started as its own process with each variable of
 * the outside contract set (one at a time where they interact), on each engine, reaching /api/status and then
 * doing what the variable promises. Starts run three at a time; every process is stopped and every database
 * dropped in afterAll. Shutdown on SIGTERM has its own file (shutdown.test.ts).
 */
const engines = await availableEngines();
const sqlite = engines.find((engine) => engine.name === 'sqlite')!;
const serverEngines = engines.filter((engine) => engine.name !== 'sqlite');
const withRedis = engines.find((engine) => engine.redis);
const scope = new StartupScope(3);
const upstreams: MockOpenAIUpstream[] = [];
const temporaryFolders: string[] = [];
afterAll(async () => {
  await scope.cleanUp();
  await Promise.all(upstreams.map((upstream) => upstream.close()));
  for (const folder of temporaryFolders) rmSync(folder, { recursive: true, force: true });
});

const timeoutMs = 120_000;
/** A test of the matrix: waits for a slot, then runs. */
const startup = (name: string, body: () => Promise<void>) => test(name, () => scope.slot(body), timeoutMs);

async function upstream(): Promise<MockOpenAIUpstream> {
  const mock = await MockOpenAIUpstream.start();
  upstreams.push(mock);
  return mock;
}

function temporaryFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'modelgate-startup-'));
  temporaryFolders.push(folder);
  return folder;
}

/** The test process's own handle on a database a node uses (to look at rows the node wrote). */
const openFromOutside = (env: Record<string, string>) =>
  openDatabase(env.SQL_DSN ?? '', {
    sqlitePath: env.SQLITE_PATH ?? '',
    sqliteBusyTimeoutMs: 3000,
    maxConnections: 2,
  });

async function signIn(node: NodeProcess): Promise<ApiClient> {
  const client = new ApiClient(node.url);
  await client.login('root', '123456');
  return client;
}

async function readSelf(node: NodeProcess, client: ApiClient) {
  const other = new ApiClient(node.url);
  for (const [name, value] of client.cookies) other.cookies.set(name, value);
  return other.get('/api/user/self');
}

/** The statuses of `count` GET /api/status calls in a row, each with the headers `headersOf(i)`. */
async function statuses(node: NodeProcess, count: number, headersOf: (index: number) => Record<string, string>) {
  const result: number[] = [];
  for (let index = 0; index < count; index++)
    result.push((await fetch(`${node.url}/api/status`, { headers: headersOf(index) })).status);
  return result;
}

describe.concurrent('start-up matrix: each documented variable, through the real entry point', () => {
  startup(
    'first start with only SQLITE_PATH: root / 123456 signs in, the database and a generated SESSION_SECRET are kept there, and a restart keeps sessions',
    async () => {
      const folder = temporaryFolder();
      const env = { SQLITE_PATH: join(folder, 'nested', 'gateway.db'), SESSION_SECRET: '' };
      const first = await scope.start(env);
      expect(first.output()).toContain('created the root user root / 123456');
      const root = await signIn(first);
      expect((await readSelf(first, root)).body.data).toMatchObject({ username: 'root', role: 100 });
      expect(existsSync(env.SQLITE_PATH)).toBe(true);
      const secretFile = join(dirname(env.SQLITE_PATH), 'session-secret');
      expect(readFileSync(secretFile, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
      expect(await first.stop()).toBe(0);

      const second = await scope.start(env);
      expect(second.output()).not.toContain('created the root user');
      expect((await readSelf(second, root)).body.data).toMatchObject({ username: 'root' });
      expect(await second.stop()).toBe(0);
    },
  );

  for (const engine of engines)
    startup(
      `INITIAL_ROOT_TOKEN and INITIAL_ROOT_ACCESS_TOKEN on the first start (${engine.label}, ${engine.name === 'sqlite' ? 'SQLITE_PATH' : 'SQL_DSN URL'})`,
      async () => {
        const database = await scope.database(engine);
        const secrets = rootSecrets();
        const node = await scope.start({ ...database.env, ...secrets.env });
        const models = await fetch(`${node.url}/v1/models`, { headers: { authorization: `Bearer sk-${secrets.key}` } });
        expect(models.status).toBe(200);
        expect(((await models.json()) as { object: string }).object).toBe('list');
        const self = await new ApiClient(node.url, secrets.accessToken).get('/api/user/self');
        expect(self.body.data).toMatchObject({ username: 'root', role: 100 });
        const unknown = await fetch(`${node.url}/v1/models`, { headers: { authorization: 'Bearer sk-not-a-key' } });
        expect(unknown.status).toBe(401);
        expect(await node.stop()).toBe(0);
      },
    );

  const mysql = serverEngines.find((engine) => engine.name === 'mysql');
  test.skipIf(!mysql)(
    "SQL_DSN in one-api's form user:pass@tcp(host:port)/db (MariaDB)",
    () =>
      scope.slot(async () => {
        const database = await scope.database(mysql!);
        const url = new URL(database.env.SQL_DSN!);
        const password = url.password ? `:${decodeURIComponent(url.password)}` : '';
        const dsn = `${decodeURIComponent(url.username)}${password}@tcp(${url.hostname}:${url.port || 3306})${url.pathname}`;
        const node = await scope.start({ SQL_DSN: dsn });
        expect((await readSelf(node, await signIn(node))).body.data).toMatchObject({ username: 'root' });
        const outside = await openFromOutside(database.env);
        const users = await outside.db.selectFrom('users').select('username').execute();
        await outside.close();
        expect(users).toEqual([{ username: 'root' }]);
        await node.stop();
      }),
    timeoutMs,
  );

  const logEngine = serverEngines[0];
  test.skipIf(!logEngine)(
    `LOG_SQL_DSN: a relay call's consume log lands in the other database (${logEngine?.label})`,
    () =>
      scope.slot(async () => {
        const main = await scope.database(sqlite);
        const logs = await scope.database(logEngine!);
        const secrets = rootSecrets();
        const node = await scope.start({ ...main.env, LOG_SQL_DSN: logs.env.SQL_DSN!, ...secrets.env });
        await addChannel(node, secrets.accessToken, (await upstream()).url);
        expect((await chat(node, secrets.key)).status).toBe(200);
        const consumeLogs = async (env: Record<string, string>) => {
          const outside = await openFromOutside(env);
          try {
            return await outside.db
              .selectFrom('logs')
              .select(['model_name', 'username'])
              .where('type', '=', 2)
              .execute();
          } finally {
            await outside.close();
          }
        };
        const found = await eventually(async () => (await consumeLogs(logs.env)).length > 0, 5000);
        expect(found).toBe(true);
        expect(await consumeLogs(logs.env)).toEqual([{ model_name: 'gpt-3.5-turbo', username: 'root' }]);
        expect(await consumeLogs(main.env)).toEqual([]);
        await node.stop();
      }),
    timeoutMs,
  );

  test.skipIf(!withRedis)(
    'REDIS_CONN_STRING and REDIS_KEY_PREFIX: the API rate limit is counted in Redis under the prefix',
    () =>
      scope.slot(async () => {
        const database = await scope.database(withRedis!);
        const prefix = `mgstartup:${Date.now().toString(36)}:`;
        const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
        try {
          const node = await scope.start({
            ...database.env,
            REDIS_CONN_STRING: redisUrl,
            REDIS_KEY_PREFIX: prefix,
            GLOBAL_API_RATE_LIMIT: '3',
          });
          // The start's own /api/status poll counted once: two more pass, the next is refused.
          expect(await statuses(node, 3, () => ({}))).toEqual([200, 200, 429]);
          const keys = await redis.keys(`${prefix}*`);
          expect(keys.some((key) => key.includes('GA127.0.0.1'))).toBe(true);
          await node.stop();
        } finally {
          const keys = await redis.keys(`${prefix}*`);
          if (keys.length) await redis.del(...keys);
          redis.disconnect();
        }
      }),
    timeoutMs,
  );

  startup(
    'SESSION_SECRET: a session cookie from one node works on another with the same secret, not with another secret',
    async () => {
      const database = await scope.database(sqlite);
      const first = await scope.start({ ...database.env, SESSION_SECRET: 'matrix-secret-one-0123456789abcdef' });
      const [same, other] = await Promise.all([
        scope.start({ ...database.env, SESSION_SECRET: 'matrix-secret-one-0123456789abcdef' }),
        scope.start({ ...database.env, SESSION_SECRET: 'matrix-secret-two-0123456789abcdef' }),
      ]);
      const root = await signIn(first);
      expect((await readSelf(same, root)).body).toMatchObject({ success: true, data: { username: 'root' } });
      const refused = await readSelf(other, root);
      expect(refused.status).toBe(401);
      expect(refused.body.success).toBe(false);
      await Promise.all([first.stop(), same.stop(), other.stop()]);
    },
  );

  for (const engine of engines)
    startup(
      `NODE_TYPE=slave runs no migration: on an empty database it exits naming the cause, on a migrated one it serves (${engine.label})`,
      async () => {
        const database = await scope.database(engine);
        const refused = await startNodeProcess({ ...database.env, NODE_TYPE: 'slave' }).then(
          (node) => node.stop().then(() => ''),
          (error: Error) => error.message,
        );
        expect(refused).toMatch(/exited with 1/);
        expect(refused).toContain('NODE_TYPE=slave runs no migrations and this database has no tables yet');
        const master = await scope.start({ ...database.env, NODE_TYPE: 'master' });
        await master.stop();
        const slave = await scope.start({ ...database.env, NODE_TYPE: 'slave' });
        expect((await readSelf(slave, await signIn(slave))).body.data).toMatchObject({ username: 'root' });
        await slave.stop();
      },
    );

  startup('PORT and HOST: the node answers on the address and port given', async () => {
    const database = await scope.database(sqlite);
    // startNodeProcess sets PORT to a free port and HOST to 127.0.0.1, and waits for /api/status there.
    const node = await scope.start(database.env);
    const status = await fetch(`${node.url}/api/status`);
    expect(((await status.json()) as { success: boolean }).success).toBe(true);
    await node.stop();
  });

  startup('SYNC_FREQUENCY=1: an option written straight into the database is served within 3 s', async () => {
    const database = await scope.database(sqlite);
    const node = await scope.start({ ...database.env, SYNC_FREQUENCY: '1' });
    const outside = await openFromOutside(database.env);
    await sql`insert into options (key, value) values ('SystemName', 'Synced By The Clock')
      on conflict (key) do update set value = excluded.value`.execute(outside.db);
    await outside.close();
    const systemName = async () =>
      ((await (await fetch(`${node.url}/api/status`)).json()) as { data: { system_name: string } }).data.system_name;
    expect(await eventually(async () => (await systemName()) === 'Synced By The Clock', 3000)).toBe(true);
    await node.stop();
  });

  startup('BATCH_UPDATE_ENABLED: counters wait for the flush (at BATCH_UPDATE_INTERVAL, and at shutdown)', async () => {
    const mock = await upstream();
    const requestCount = async (env: Record<string, string>) => {
      const outside = await openFromOutside(env);
      const row = await outside.db
        .selectFrom('users')
        .select('request_count')
        .where('username', '=', 'root')
        .executeTakeFirstOrThrow();
      await outside.close();
      return Number(row.request_count);
    };
    const startBatched = async (interval: string) => {
      const database = await scope.database(sqlite);
      const secrets = rootSecrets();
      const node = await scope.start({
        ...database.env,
        ...secrets.env,
        BATCH_UPDATE_ENABLED: 'true',
        BATCH_UPDATE_INTERVAL: interval,
      });
      await addChannel(node, secrets.accessToken, mock.url);
      expect((await chat(node, secrets.key)).status).toBe(200);
      return { node, env: database.env };
    };
    const [slow, fast] = await Promise.all([startBatched('600'), startBatched('1')]);
    // Unbatched, the count is written within milliseconds of the answer.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await requestCount(slow.env)).toBe(0);
    expect(await slow.node.stop()).toBe(0);
    expect(await requestCount(slow.env)).toBe(1);
    expect(await eventually(async () => (await requestCount(fast.env)) === 1, 3000)).toBe(true);
    await fast.node.stop();
  });

  startup('RELAY_TIMEOUT=1: an upstream that does not answer is abandoned after about a second', async () => {
    const mock = await upstream();
    mock.set({ garbage: 'hang' });
    const database = await scope.database(sqlite);
    const secrets = rootSecrets();
    const node = await scope.start({ ...database.env, ...secrets.env, RELAY_TIMEOUT: '1' });
    await addChannel(node, secrets.accessToken, mock.url);
    const startedAt = Date.now();
    const response = await chat(node, secrets.key, AbortSignal.timeout(15_000));
    const elapsedMs = Date.now() - startedAt;
    expect(response.status).toBeGreaterThanOrEqual(500);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBeTruthy();
    expect(elapsedMs).toBeGreaterThanOrEqual(900);
    expect(elapsedMs).toBeLessThan(5000);
    await node.stop();
  });

  startup(
    'GLOBAL_API_RATE_LIMIT and TRUSTED_PROXIES: the N+1th call of an address gets 429; X-Forwarded-For counts only from a trusted proxy',
    async () => {
      const database = await scope.database(sqlite);
      const limits = { ...database.env, GLOBAL_API_RATE_LIMIT: '2' };
      // One after the other: the first creates the schema and root.
      const trusting = await scope.start({ ...limits, TRUSTED_PROXIES: '127.0.0.1' });
      const distrusting = await scope.start({ ...limits, TRUSTED_PROXIES: '192.0.2.1' });
      const client = (address: string) => () => ({ 'x-forwarded-for': address });
      expect(await statuses(trusting, 3, client('198.51.100.7'))).toEqual([200, 200, 429]);
      expect(await statuses(trusting, 1, client('198.51.100.8'))).toEqual([200]);
      // Untrusted, every call is 127.0.0.1's, whose start-up poll already counted once.
      expect(await statuses(distrusting, 2, (index) => client(`198.51.100.${index + 20}`)())).toEqual([200, 429]);
      await Promise.all([trusting.stop(), distrusting.stop()]);
    },
  );

  startup('CRITICAL_RATE_LIMIT=2: the third sign-in attempt in the window gets 429', async () => {
    const database = await scope.database(sqlite);
    const node = await scope.start({ ...database.env, CRITICAL_RATE_LIMIT: '2' });
    const attempt = () => new ApiClient(node.url).post('/api/user/login', { username: 'root', password: 'wrong' });
    const answers = [await attempt(), await attempt(), await attempt()];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429]);
    expect(answers[0]!.body.success).toBe(false);
    await node.stop();
  });

  startup('LOG_LEVEL: debug logs each request, error keeps even the first-start warning quiet', async () => {
    const [debugDatabase, errorDatabase] = await Promise.all([scope.database(sqlite), scope.database(sqlite)]);
    const [debug, quiet] = await Promise.all([
      scope.start({ ...debugDatabase.env, LOG_LEVEL: 'debug' }),
      scope.start({ ...errorDatabase.env, LOG_LEVEL: 'error' }),
    ]);
    await fetch(`${debug.url}/api/status?from=matrix`);
    expect(await eventually(async () => debug.output().includes('/api/status?from=matrix'), 2000)).toBe(true);
    expect(quiet.output()).not.toContain('created the root user');
    expect(quiet.output()).toBe('');
    await Promise.all([debug.stop(), quiet.stop()]);
  });

  startup('WEB_DIST: the console is served from the folder given', async () => {
    const folder = temporaryFolder();
    writeFileSync(join(folder, 'index.html'), '<!doctype html><title>matrix console</title>');
    const database = await scope.database(sqlite);
    const node = await scope.start({ ...database.env, WEB_DIST: folder });
    for (const path of ['/', '/token']) {
      const page = await fetch(`${node.url}${path}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<title>matrix console</title>');
    }
    await node.stop();
  });

  /** A start that must fail: given time for tsx's compile on a loaded machine (a minute and more). */
  const refusal = (name: string, body: () => Promise<void>) => test(name, () => scope.slot(body), 2 * timeoutMs);

  /** Starts a node that must refuse to: its exit code and what it printed, line by line. */
  async function refusedStart(env: Record<string, string>, port?: number) {
    const failure = await startNodeProcess(env, timeoutMs, [], port).then(
      (node) => node.stop().then(() => 'started'),
      (error: Error) => error.message,
    );
    const exited = /exited with (\d+) while starting:\n([\s\S]*)$/.exec(failure);
    expect(exited, failure).not.toBeNull();
    return { code: Number(exited![1]), lines: (exited![2] ?? '').trim().split('\n') };
  }

  // One start for every bad value at once (each start costs tsx's compile: a minute on a loaded machine).
  refusal(
    'bad values stop the start: exit 1, one line per problem naming the variable and its form, no stack',
    async () => {
      const { code, lines } = await refusedStart({
        SQLITE_PATH: join(fileURLToPath(import.meta.url), 'never.db'),
        PORT: 'abc',
        NODE_TYPE: 'primary',
        REDIS_CONN_STRING: 'http://127.0.0.1:6379',
        SQL_DSN: 'sqlite:./x.db',
        LOG_SQL_DSN: 'postgres//127.0.0.1/x',
        HOST: 'local host',
        TRUSTED_PROXIES: '127.0.0.1,my proxy',
        TURNSTILE_VERIFY_URL: 'challenges.cloudflare.com',
        SESSION_SECRET: '', // unset: a secret would be generated beside SQLITE_PATH, which must be writable
      });
      expect(code).toBe(1);
      expect(lines.sort()).toEqual([
        expect.stringMatching(/^invalid setting HOST: wants an IP address or a host name/),
        expect.stringMatching(/^invalid setting LOG_SQL_DSN: wants postgres:\/\/.* or user:pass@tcp\(host:3306\)\/db$/),
        'invalid setting NODE_TYPE: wants one of master, slave',
        'invalid setting PORT: wants a number',
        'invalid setting REDIS_CONN_STRING: wants redis://host:6379/0 or rediss://…',
        expect.stringMatching(/^invalid setting SQLITE_PATH: wants a file in a folder this process can create/),
        expect.stringMatching(/^invalid setting SQL_DSN: wants postgres:\/\//),
        expect.stringMatching(/^invalid setting TRUSTED_PROXIES: wants comma-separated addresses/),
        'invalid setting TURNSTILE_VERIFY_URL: wants a URL such as https://host',
      ]);
    },
  );

  refusal('a busy PORT stops the start before the database and root are created: one line, exit 1', async () => {
    const folder = temporaryFolder();
    // It hangs up at once, so the start's wait for /api/status sees a refused call, never this listener.
    const holder = createServer((socket) => socket.destroy());
    const port = await new Promise<number>((resolve) =>
      holder.listen(0, '127.0.0.1', () => resolve((holder.address() as AddressInfo).port)),
    );
    try {
      const { code, lines } = await refusedStart({ SQLITE_PATH: join(folder, 'never.db'), SESSION_SECRET: '' }, port);
      expect(code).toBe(1);
      expect(lines).toEqual([
        `invalid setting PORT: ${port} on 127.0.0.1 is in use by another process: wants a free port`,
      ]);
      expect(readdirSync(folder)).toEqual([]); // no database, no root, not even a generated session secret
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
