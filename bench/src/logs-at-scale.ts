// Logs at scale (issue 16): seeds LOG_ROWS consume logs (10 million by default) on SQLite and on PostgreSQL,
// lets the server roll them up in the background as it would for a migrated one-api install, then measures
// every log endpoint the console uses (p50/p95), a retention run, an export, and the relay's p99 while that
// admin work runs. Loopback only; each engine gets a fresh database that is dropped at the end.
//   cd bench && npm run logs            (LOG_ROWS, LOG_ENGINES=sqlite,postgres, LOG_SAMPLES, LOG_ADMIN_WORK)
// LOG_KEEP_SEED=1 keeps each engine's seeded database (rollups built) and starts later runs from a copy of it:
// seeding 10M rows takes minutes, a copy seconds. The kept copies are named below; drop them by hand.
import { execSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { request } from 'undici';
import { firstLine, startProcess, waitUntil, type Started } from './processes.js';

const rows = Number(process.env.LOG_ROWS ?? 10_000_000);
const engines = (process.env.LOG_ENGINES ?? 'sqlite,postgres').split(',');
const samples = Number(process.env.LOG_SAMPLES ?? 40);
// The retention run deletes the logs older than this: the oldest 1/18 of the 90 days.
const retentionDays = Number(process.env.LOG_RETENTION_DAYS ?? 85);
// Which admin work runs beside the relay load (to see each one's share): pages, export, retention.
const adminWork = new Set((process.env.LOG_ADMIN_WORK ?? 'pages,export,retention').split(','));
const benchRoot = resolve(import.meta.dirname, '..');
const repositoryRoot = resolve(benchRoot, '..');
const port = 18_400;
const base = `http://127.0.0.1:${port}`;
const accessToken = 'benchlogsaccesstoken0123456789ab';
const postgresAdmin = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const days = 90;
const keepSeed = process.env.LOG_KEEP_SEED === '1';
const seedName = `mg_bench_logs_seed_${rows}`;
const sqliteSeed = join(tmpdir(), `${seedName}.db`);
const now = Math.floor(Date.now() / 1000);
const start = now - days * 86_400;

const percentile = (values: number[], fraction: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
};
const ms = (value: number) => value.toFixed(1);

/**
 * One consume log per row number n, skewed as real traffic is (a few users, tokens and models carry most
 * calls): 200 users with 10 tokens each, 40 models on 20 channels, 90 days, ids in time order, 1 in 20 rows
 * another log type. The same SQL expressions on SQLite and PostgreSQL (integer arithmetic on a hash of n).
 */
function seedSelect(hash: (salt: number) => string, n: string) {
  const skewed = (salt: number, size: number) =>
    `((${hash(salt)} % ${size}) * (${hash(salt + 1)} % ${size}) / ${size})`;
  const user = `(1 + ${skewed(1, 200)})`;
  const model = skewed(3, 40);
  return `${user}, ${start} + (${n} * ${days * 86_400}) / ${rows}, case when ${hash(5)} % 20 = 0 then 1 + ${hash(6)} % 4 else 2 end,
    'ratio 1', 'user' || ${user}, 'token-' || (${hash(7)} % 10), 'model-' || ${model},
    10 + ${hash(8)} % 5000, 10 + ${hash(9)} % 2000, ${hash(10)} % 800, 1 + ${model} % 20, 'r' || n,
    200 + ${hash(11)} % 9000, (${hash(12)} % 2 = 1), (1 = 0)`;
}
const columns =
  'user_id, created_at, type, content, username, token_name, model_name, quota, prompt_tokens, completion_tokens, channel_id, request_id, elapsed_time, is_stream, system_prompt_reset';

async function seedSqlite(file: string) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const hash = (salt: number) => `((n * ${2654435761 + salt * 40503} + ${salt * 97}) % 1000003)`;
  const chunk = 500_000;
  for (let first = 1; first <= rows; first += chunk) {
    const last = Math.min(rows, first + chunk - 1);
    db.exec(`with recursive numbers(n) as (select ${first} union all select n + 1 from numbers where n < ${last})
      insert into logs (${columns}) select ${seedSelect(hash, 'n')} from numbers`);
    process.stdout.write(`\r  seeded ${last.toLocaleString('en')} rows`);
  }
  process.stdout.write('\n');
  db.close();
}

async function seedPostgres(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const hash = (salt: number) => `((n::bigint * ${2654435761 + salt * 40503} + ${salt * 97}) % 1000003)`;
  const chunk = 1_000_000;
  for (let first = 1; first <= rows; first += chunk) {
    const last = Math.min(rows, first + chunk - 1);
    await client.query(
      `insert into logs (${columns}) select ${seedSelect(hash, 'n::bigint')} from generate_series(${first}, ${last}) as n`,
    );
    process.stdout.write(`\r  seeded ${last.toLocaleString('en')} rows`);
  }
  process.stdout.write('\n');
  await client.query('analyze logs');
  await client.end();
}

function startServer(env: Record<string, string>): Started {
  const startScript: string = JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8')).scripts.start;
  const nodeFlags = startScript.split(/\s+/).filter((part) => part.startsWith('--'));
  // Extra flags for the server only, to look inside a run: BENCH_SERVER_FLAGS='--cpu-prof --cpu-prof-dir=/tmp/prof'.
  nodeFlags.push(...(process.env.BENCH_SERVER_FLAGS ?? '').split(/\s+/).filter(Boolean));
  return startProcess(
    process.execPath,
    [...nodeFlags, join(repositoryRoot, 'server/dist/main.js')],
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      INITIAL_ROOT_ACCESS_TOKEN: accessToken,
      LOG_LEVEL: 'warn',
      GLOBAL_API_RATE_LIMIT: '0',
      NODE_ENV: 'production',
      ...env,
    },
    repositoryRoot,
  );
}

async function api(path: string, method = 'GET', body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: accessToken, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const result = JSON.parse(text) as { success: boolean; message: string; data: any };
  if (!result.success) throw new Error(`${method} ${path}: ${result.message}`);
  return result.data;
}

async function timed(path: string, origin = base): Promise<number> {
  const begun = performance.now();
  const response = await fetch(`${origin}${path}`, { headers: { authorization: accessToken } });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return performance.now() - begun;
}

/** A steady relay load (4 clients in a loop) and its latencies, until `stop` resolves. */
async function relayLoad(key: string, stop: Promise<void>): Promise<number[]> {
  const latencies: number[] = [];
  let failures = 0;
  let stopped = false;
  void stop.then(() => (stopped = true));
  const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (!stopped) {
        const begun = performance.now();
        const response = await fetch(`${base}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body,
        }).catch(() => null);
        if (!response?.ok) failures += 1;
        await response?.arrayBuffer();
        latencies.push(performance.now() - begun);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }),
  );
  if (failures > 0) console.log(`  ${failures} relay calls failed`);
  return latencies;
}

const sleep = (milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

async function runEngine(engine: string) {
  console.log(`\n== ${engine}: ${rows.toLocaleString('en')} logs`);
  const directory = mkdtempSync(join(tmpdir(), 'modelgate-logs-bench-'));
  const databaseName = `mg_bench_logs_${process.pid}`;
  let env: Record<string, string>;
  let seeded = false;
  if (engine === 'sqlite') {
    env = { SQLITE_PATH: join(directory, 'modelgate.db') };
    seeded = keepSeed && existsSync(sqliteSeed);
    if (seeded) copyFileSync(sqliteSeed, env.SQLITE_PATH!);
  } else {
    seeded = keepSeed && (await postgresAdminQuery('select 1 from pg_database where datname = $1', [seedName])) > 0;
    await postgresAdminQuery(`create database ${databaseName}${seeded ? ` template ${seedName}` : ''}`);
    const url = new URL(postgresAdmin);
    url.pathname = `/${databaseName}`;
    env = { SQL_DSN: url.toString() };
  }
  if (seeded) console.log(`  starting from the kept seed (${engine === 'sqlite' ? sqliteSeed : seedName})`);
  const started: Started[] = [];
  try {
    if (!seeded) await seed(engine, env);
    const server = startServer(env);
    started.push(server);
    await waitUntil('ModelGate', async () => (await fetch(`${base}/api/status`)).ok);
    await measure(env, started);
  } catch (error) {
    console.error(`  ${engine} failed:`, error);
    throw error;
  } finally {
    for (const child of started.reverse()) await child.stop();
    rmSync(directory, { recursive: true, force: true });
    if (engine !== 'sqlite') await postgresAdminQuery(`drop database if exists ${databaseName} with (force)`);
  }
}

async function postgresAdminQuery(sql: string, parameters: unknown[] = []): Promise<number> {
  const admin = new pg.Client({ connectionString: postgresAdmin });
  await admin.connect();
  try {
    return (await admin.query(sql, parameters)).rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

/** Schema, LOG_ROWS logs and their rollups; kept for later runs with LOG_KEEP_SEED=1. */
async function seed(engine: string, env: Record<string, string>) {
  // First start creates the schema (and root); stop, seed, start again: the logs predate the rollups' rows.
  const server = startServer(env);
  await waitUntil('ModelGate', async () => (await fetch(`${base}/api/status`)).ok);
  await server.stop();
  const seeding = performance.now();
  if (engine === 'sqlite') await seedSqlite(env.SQLITE_PATH!);
  else await seedPostgres(env.SQL_DSN!);
  console.log(`  seeding took ${((performance.now() - seeding) / 1000).toFixed(0)} s`);
  // As the rollups' migration records an install that arrives with logs: all of them are to be rolled up,
  // by the server in the background (LOG_BACKFILL=background, the default up to a million rows), or here
  // in one statement per table first (larger runs: the background job takes its time by design).
  const background = (process.env.LOG_BACKFILL ?? (rows <= 1_000_000 ? 'background' : 'direct')) === 'background';
  const statements = [
    'delete from log_rollups',
    'delete from log_rollups_by_model',
    `update log_rollup_state set boundary_id = (select max(id) + 1 from logs),
        cursor_id = (select max(id) + 1 from logs), frontier = (select max(created_at) - max(created_at) % 3600 + 7200 from logs)`,
  ];
  if (!background)
    statements.push(
      `insert into log_rollups (hour, user_id, username, token_name, model_name, channel_id, calls, quota, prompt_tokens,
          completion_tokens, elapsed_ms) select created_at - created_at % 3600, user_id, username, token_name, model_name,
          channel_id, count(*), sum(quota), sum(prompt_tokens), sum(completion_tokens), sum(elapsed_time) from logs
          where type = 2 group by created_at - created_at % 3600, user_id, username, token_name, model_name, channel_id`,
      `insert into log_rollups_by_model (hour, model_name, channel_id, calls, quota, prompt_tokens, completion_tokens,
          elapsed_ms) select created_at - created_at % 3600, model_name, channel_id, count(*), sum(quota), sum(prompt_tokens),
          sum(completion_tokens), sum(elapsed_time) from logs where type = 2
          group by created_at - created_at % 3600, model_name, channel_id`,
      'update log_rollup_state set frontier = 0, cursor_id = (select min(id) from logs)',
    );
  const rollingDirect = performance.now();
  if (engine === 'sqlite') {
    const db = new Database(env.SQLITE_PATH!);
    for (const statement of statements) db.exec(statement);
    db.close();
  } else {
    const client = new pg.Client({ connectionString: env.SQL_DSN });
    await client.connect();
    for (const statement of statements) await client.query(statement);
    // A table that grew to 10M rows has been vacuumed by autovacuum on the way (its insert threshold); a bulk
    // seed has not, and without the visibility map an index-only scan (the `p=` offset) reads the heap too.
    await client.query('vacuum analyze');
    await client.end();
  }
  if (!background)
    console.log(`  rollups built in one statement each: ${((performance.now() - rollingDirect) / 1000).toFixed(0)} s`);
  if (keepSeed && engine === 'sqlite') copyFileSync(env.SQLITE_PATH!, sqliteSeed);
  if (keepSeed && engine !== 'sqlite')
    await postgresAdminQuery(`create database ${seedName} template ${new URL(env.SQL_DSN!).pathname.slice(1)}`);
}

/** The log endpoints' timings, then the relay's p99 idle and during admin work, on a started server. */
async function measure(env: Record<string, string>, started: Started[]) {
  // The background rollup of the seeded logs, as for an old install.
  const rolling = performance.now();
  const rollupStatus = async () => {
    const url = env.SQL_DSN;
    if (url) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const { rows: state } = await client.query('select frontier from log_rollup_state');
      await client.end();
      return Number(state[0]?.frontier ?? 1);
    }
    const db = new Database(env.SQLITE_PATH!, { readonly: true });
    const state = db.prepare('select frontier from log_rollup_state').get() as { frontier: number } | undefined;
    db.close();
    return Number(state?.frontier ?? 1);
  };
  const statusDuringBackfill: number[] = [];
  for (let waited = 0; (await rollupStatus()) !== 0 && waited < 3600; waited++) {
    statusDuringBackfill.push(await timed('/api/status'));
    await sleep(1000);
  }
  console.log(
    `  background rollup of ${rows.toLocaleString('en')} logs: ${((performance.now() - rolling) / 1000).toFixed(0)} s; /api/status meanwhile p50 ${ms(percentile(statusDuringBackfill, 0.5))} ms, max ${ms(Math.max(...statusDuringBackfill))} ms`,
  );

  // A relay path for the latency figures.
  const mock = startProcess(process.execPath, ['--import', 'tsx', 'src/mock-upstream.ts', '0'], {}, benchRoot);
  started.push(mock);
  const mockPort = Number(await firstLine(mock.process));
  const mockOrigin = `http://127.0.0.1:${mockPort}`;
  await api('/api/channel/', 'POST', {
    name: 'bench mock',
    type: 8,
    key: 'sk-upstream-bench',
    base_url: mockOrigin,
    models: 'gpt-4o-mini',
    group: 'default',
  });
  await api('/api/token/', 'POST', { name: 'logs-bench', remain_quota: 0, unlimited_quota: true, expired_time: -1 });
  const tokens = (await api('/api/token/?p=0')) as { name: string; key: string }[];
  const key = `sk-${tokens.find((token) => token.name === 'logs-bench')!.key}`;

  const dayAgo = now - 86_400;
  const lastId = Number(((await api('/api/log/?p=0')) as { id: number }[])[0]?.id ?? 0);
  const endpoints: [string, string][] = [
    ['list, page 0', '/api/log/?p=0'],
    ['list, page 0, consume only', '/api/log/?p=0&type=2'],
    ['list, deep page (p=50,000)', '/api/log/?p=50000'],
    ['list, deep page by cursor', `/api/log/?before_id=${Math.max(1, lastId - 500_000)}`],
    ['list, one user', '/api/log/?p=0&username=user7'],
    ['list, one token name', '/api/log/?p=0&token_name=token-3'],
    ['list, one model', '/api/log/?p=0&model_name=model-17'],
    ['list, one channel', '/api/log/?p=0&channel=9'],
    ['list, one day', `/api/log/?p=0&start_timestamp=${dayAgo - 86_400 * 30}&end_timestamp=${dayAgo - 86_400 * 29}`],
    ['stat, all time', '/api/log/stat?type=2'],
    ['stat, one day, one user', `/api/log/stat?type=2&username=user3&start_timestamp=${dayAgo}&end_timestamp=${now}`],
    [
      'chart, 7 days by day',
      `/api/log/series?granularity=day&start_timestamp=${now - 7 * 86_400}&end_timestamp=${now}`,
    ],
    [
      'chart, 2 days by hour',
      `/api/log/series?granularity=hour&start_timestamp=${now - 2 * 86_400}&end_timestamp=${now}`,
    ],
    ['dashboard', '/api/user/dashboard'],
    ['status', '/api/status'],
    ['service status', '/api/status/models'],
  ];
  const figures: string[] = ['| endpoint | p50 (ms) | p95 (ms) |', '|---|---|---|'];
  for (const [name, path] of endpoints) {
    const times: number[] = [];
    try {
      await timed(path);
      for (let index = 0; index < samples; index++) times.push(await timed(path));
      figures.push(`| ${name} | ${ms(percentile(times, 0.5))} | ${ms(percentile(times, 0.95))} |`);
    } catch (error) {
      figures.push(`| ${name} | (${(error as Error).message}) | |`);
    }
  }
  console.log(figures.join('\n'));

  // The relay's p99 idle, then while an admin works: list, stat and chart in a loop, an export, a retention run.
  let finish!: () => void;
  const idle = relayLoad(key, new Promise((resolve) => (finish = resolve)));
  await sleep(10_000);
  finish();
  const idleLatencies = await idle;
  const statusDuringRetention: number[] = [];
  let adminDone = false;
  const busy = relayLoad(key, new Promise((resolve) => (finish = resolve)));
  await sleep(3000);
  // An admin at work: the log page's calls one after another, a new page every 250 ms.
  const adminLoop = (async () => {
    while (!adminDone && adminWork.has('pages'))
      for (const [, path] of endpoints.slice(0, 13)) {
        if (adminDone) break;
        await timed(path).catch(() => undefined);
        await sleep(250);
      }
  })();
  const exportBegun = performance.now();
  // Compressed as a browser asks for it, and read as sent: an admin's browser unpacks it on another machine,
  // and unpacking it here would delay this process's own relay timings.
  const exported = adminWork.has('export')
    ? await request(`${base}/api/log/export?type=2&start_timestamp=${now - 3 * 86_400}`, {
        headers: { authorization: accessToken, 'accept-encoding': 'br, gzip' },
      })
    : undefined;
  let exportBytes = 0;
  for await (const chunk of exported?.body ?? []) exportBytes += (chunk as Buffer).byteLength;
  const exportMs = performance.now() - exportBegun;
  const retentionBegun = performance.now();
  let retentionRunning = true;
  // This process's own stalls delay its timings too: reported beside them, to tell its delays from the server's.
  const clientLoop = monitorEventLoopDelay({ resolution: 10 });
  clientLoop.enable();
  // A control beside each /api/status call: the mock, a process of its own that does nothing of ours, asked at
  // the same moment. When both are slow at once, the machine was busy, not the server.
  const controlDuringRetention: number[] = [];
  const statusProbe = (async () => {
    while (retentionRunning) {
      const [status, control] = await Promise.all([timed('/api/status'), timed('/', mockOrigin)]);
      statusDuringRetention.push(status);
      controlDuringRetention.push(control);
      await sleep(50);
    }
  })();
  const deleted = adminWork.has('retention')
    ? await api(`/api/log/?target_timestamp=${now - retentionDays * 86_400}`, 'DELETE')
    : await sleep(10_000);
  retentionRunning = false;
  await statusProbe;
  clientLoop.disable();
  const retentionMs = performance.now() - retentionBegun;
  adminDone = true;
  await adminLoop;
  finish();
  const busyLatencies = await busy;
  console.log(
    [
      `  export (3 days of consume logs): ${exported?.statusCode ?? 'skipped'} ${(exportBytes / 1_048_576).toFixed(1)} MiB ${exported?.headers['content-encoding'] ?? ''} in ${ms(exportMs)} ms`,
      `  retention run (logs older than ${retentionDays} days): ${JSON.stringify(deleted)} deleted in ${(retentionMs / 1000).toFixed(1)} s; /api/status meanwhile p50 ${ms(percentile(statusDuringRetention, 0.5))} ms, max ${ms(Math.max(...statusDuringRetention))} ms (this process's own event loop delayed up to ${ms(clientLoop.max / 1e6)} ms; the mock asked at the same moment as the slowest: ${ms(controlDuringRetention[statusDuringRetention.indexOf(Math.max(...statusDuringRetention))] ?? Number.NaN)} ms, its own max ${ms(Math.max(...controlDuringRetention))} ms)`,
      `  relay p99 idle ${ms(percentile(idleLatencies, 0.99))} ms (${idleLatencies.length} calls), during admin work ${ms(percentile(busyLatencies, 0.99))} ms (${busyLatencies.length} calls)`,
    ].join('\n'),
  );
}

if (!process.env.BENCH_SKIP_BUILD) execSync('npm run build -w server', { cwd: repositoryRoot, stdio: 'inherit' });
for (const engine of engines) await runEngine(engine);
