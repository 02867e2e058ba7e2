import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const booleanString = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1');

const seconds = (fallback: number) => z.coerce.number().int().min(0).default(fallback);

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Every environment variable the server reads, with its default. Nothing else reads process.env. */
const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  SQLITE_PATH: z.string().default('./data/modelgate.db'),
  SQLITE_BUSY_TIMEOUT: z.coerce.number().int().min(0).default(3000),
  SQL_DSN: z.string().default(''),
  LOG_SQL_DSN: z.string().default(''),
  SQL_MAX_OPEN_CONNS: z.coerce.number().int().min(1).default(50),
  REDIS_CONN_STRING: z.string().default(''),
  /** Prefix of every Redis key and channel, so several deployments (or test runs) can share one Redis. */
  REDIS_KEY_PREFIX: z.string().default('modelgate:'),
  SESSION_SECRET: z.string().default(''),
  INITIAL_ROOT_TOKEN: z.string().max(48).default(''),
  INITIAL_ROOT_ACCESS_TOKEN: z.string().max(32).default(''),
  NODE_TYPE: z.enum(['master', 'slave']).default('master'),
  SYNC_FREQUENCY: seconds(600),
  BATCH_UPDATE_ENABLED: booleanString,
  BATCH_UPDATE_INTERVAL: z.coerce.number().int().min(1).default(5),
  /** Seconds between a node's heartbeats; a node silent for three is dead and its reservations are given back. */
  NODE_HEARTBEAT_INTERVAL: z.coerce.number().int().min(1).default(2),
  RELAY_TIMEOUT: seconds(0),
  /** Seconds a client has to send a request's headers (slowloris: half-sent requests are cut, 408). */
  HTTP_HEADERS_TIMEOUT: z.coerce.number().positive().default(15),
  /** Seconds a client has to send a whole request, body included (uploads); 0 for no limit. Never cuts answers. */
  HTTP_REQUEST_TIMEOUT: z.coerce.number().min(0).default(300),
  /** Seconds an idle keep-alive connection stays open after an answer. */
  HTTP_KEEPALIVE_TIMEOUT: z.coerce.number().positive().default(65),
  /** Re-serialise every relayed JSON body (one-api's flag); streams are asked for usage either way. */
  ENFORCE_INCLUDE_USAGE: booleanString,
  /** Disable channels whose recent first-attempt success rate falls below the threshold (one-api's metric). */
  ENABLE_METRIC: booleanString,
  METRIC_QUEUE_SIZE: z.coerce.number().int().min(1).default(10),
  METRIC_SUCCESS_RATE_THRESHOLD: z.coerce.number().min(0).max(1).default(0.8),
  GLOBAL_API_RATE_LIMIT: z.coerce.number().int().min(0).default(480),
  GLOBAL_WEB_RATE_LIMIT: z.coerce.number().int().min(0).default(240),
  CRITICAL_RATE_LIMIT: z.coerce.number().int().min(0).default(20),
  CHANNEL_TEST_FREQUENCY: z.coerce.number().int().min(0).optional(),
  POLLING_INTERVAL: seconds(0),
  LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
  TRUSTED_PROXIES: z.string().default('127.0.0.1,::1'),
  WEB_DIST: z.string().default(join(repositoryRoot, 'web', 'dist')),
  FRONTEND_BASE_URL: z.string().default(''),
  VERSION: z.string().default('v0.1.0'),
  TEST_PROMPT: z.string().default('Output only your specific model name with no additional text.'),
  // Third-party endpoints, configurable so tests can point them at local servers.
  GITHUB_OAUTH_BASE_URL: z.string().url().default('https://github.com'),
  GITHUB_API_BASE_URL: z.string().url().default('https://api.github.com'),
  LARK_OPEN_BASE_URL: z.string().url().default('https://open.feishu.cn'),
  LARK_PASSPORT_BASE_URL: z.string().url().default('https://passport.feishu.cn'),
  TURNSTILE_VERIFY_URL: z.string().url().default('https://challenges.cloudflare.com/turnstile/v0/siteverify'),
  UPDATE_CHECK_URL: z.string().url().default('https://api.github.com/repos/modelgate/modelgate/releases/latest'),
  OAUTH_TIMEOUT_MS: z.coerce.number().int().min(100).default(5000),
  /** Bearer token that /metrics (Prometheus) requires; empty: /metrics answers 404. */
  METRICS_TOKEN: z.string().default(''),
});

export type Config = Readonly<
  Omit<z.infer<typeof environmentSchema>, 'SESSION_SECRET'> & {
    SESSION_SECRET: string;
    /** true when REDIS_CONN_STRING is set: caches, rate limits and locks are shared. */
    redisEnabled: boolean;
    isMaster: boolean;
  }
>;

export class ConfigError extends Error {}

/** Reads and checks the environment once, listing every invalid variable. */
export function loadConfig(environment: NodeJS.ProcessEnv): Config {
  const cleaned = Object.fromEntries(
    Object.entries(environment).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = environmentSchema.safeParse(cleaned);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`invalid environment:\n  ${problems.join('\n  ')}`);
  }
  const values = parsed.data;
  if (values.HTTP_REQUEST_TIMEOUT > 0 && values.HTTP_REQUEST_TIMEOUT < values.HTTP_HEADERS_TIMEOUT)
    throw new ConfigError(
      'invalid environment:\n  HTTP_REQUEST_TIMEOUT: must be 0 or at least HTTP_HEADERS_TIMEOUT (the headers are part of the request)',
    );
  return Object.freeze({
    ...values,
    SESSION_SECRET: values.SESSION_SECRET || persistentSecret(values.SQLITE_PATH),
    redisEnabled: values.REDIS_CONN_STRING !== '',
    isMaster: values.NODE_TYPE === 'master',
  });
}

/** A generated secret kept beside the SQLite file, so sessions survive restarts without configuration. */
function persistentSecret(sqlitePath: string): string {
  const file = join(dirname(resolve(sqlitePath)), 'session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('hex');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
