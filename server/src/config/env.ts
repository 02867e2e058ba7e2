import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const booleanString = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1');

const seconds = (fallback: number) => z.coerce.number().int().min(0).default(fallback);

/** A URL, or undefined for text that is not one. */
const parsedUrl = (value: string) => {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
};

const hostname = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;
const trustedProxy = /^$|^(loopback|linklocal|uniquelocal)$|^[0-9a-f.:]+(\/\d{1,3})?$/i;

/** The forms openDatabase takes (db/connect.ts): a PostgreSQL or MySQL URL, or one-api's Go MySQL DSN. */
const sqlDsn = z
  .string()
  .refine(
    (dsn) =>
      (/^(postgres(ql)?|mysql):\/\/./.test(dsn) && parsedUrl(dsn) !== undefined) ||
      /^[^:@/]*(:[^@]*)?@(tcp\([^)]+\))?\/[^?]+/.test(dsn),
    'postgres://user:pass@host:5432/db, mysql://user:pass@host:3306/db or user:pass@tcp(host:3306)/db',
  )
  .default('');

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Every environment variable the server reads, with its default. Nothing else reads process.env. */
const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z
    .string()
    .refine((host) => isIP(host) !== 0 || hostname.test(host), 'an IP address or a host name such as 0.0.0.0 or ::')
    .default('0.0.0.0'),
  SQLITE_PATH: z.string().default('./data/modelgate.db'),
  SQLITE_BUSY_TIMEOUT: z.coerce.number().int().min(0).default(3000),
  SQL_DSN: sqlDsn,
  LOG_SQL_DSN: sqlDsn,
  SQL_MAX_OPEN_CONNS: z.coerce.number().int().min(1).default(50),
  REDIS_CONN_STRING: z
    .string()
    .refine((value) => /^rediss?:$/.test(parsedUrl(value)?.protocol ?? ''), 'redis://host:6379/0 or rediss://…')
    .default(''),
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
  /**
   * Seconds a client has to send an /api request's body once its headers arrived (the console's and admin
   * calls' bodies are small: a slow one is an attack, 408); 0 for HTTP_REQUEST_TIMEOUT's bound only.
   */
  HTTP_API_BODY_TIMEOUT: z.coerce.number().min(0).default(30),
  /** Connections one client address may hold open at once (a trusted proxy's are not counted); 0 for no limit. */
  HTTP_MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(0).default(256),
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
  TRUSTED_PROXIES: z
    .string()
    .refine(
      (list) => list.split(',').every((entry) => trustedProxy.test(entry.trim())),
      'comma-separated addresses or CIDR ranges such as 127.0.0.1,10.0.0.0/8, or loopback/linklocal/uniquelocal',
    )
    .default('127.0.0.1,::1'),
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

/** Every problem with the environment, one line each naming the variable and the form it wants. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

/** What a failed check asks for, in an operator's words (zod's own messages name types, not settings). */
function wantedForm(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.expected === 'int' ? 'a whole number' : `a ${issue.expected}`;
    case 'too_small':
      return issue.origin === 'string'
        ? `at least ${issue.minimum} characters`
        : `a number of at least ${issue.minimum}${issue.inclusive ? '' : ' (excluded)'}`;
    case 'too_big':
      return issue.origin === 'string' ? `at most ${issue.maximum} characters` : `a number up to ${issue.maximum}`;
    case 'invalid_value':
      return `one of ${issue.values.map((value) => (value === '' ? '(empty)' : String(value))).join(', ')}`;
    case 'invalid_format':
      return issue.format === 'url' ? 'a URL such as https://host' : `the ${issue.format} format`;
    default:
      return issue.message;
  }
}

/** Reads and checks the environment once, listing every invalid variable; generates SESSION_SECRET if unset. */
export const loadConfig = (environment: NodeJS.ProcessEnv): Config => withSessionSecret(checkEnvironment(environment));

/** The checked environment; SESSION_SECRET stays empty when unset (nothing is written yet). */
export type CheckedEnvironment = Omit<Config, 'SESSION_SECRET'> & { SESSION_SECRET: string };

/**
 * Checks every variable without opening or writing anything. Values are never echoed: some of them (SQL_DSN,
 * SESSION_SECRET) hold secrets.
 */
export function checkEnvironment(environment: NodeJS.ProcessEnv): CheckedEnvironment {
  const cleaned = Object.fromEntries(
    Object.entries(environment).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = environmentSchema.safeParse(cleaned);
  const wanted = new Map<string, string[]>();
  const problem = (name: string, form: string) => wanted.set(name, [...(wanted.get(name) ?? []), form]);
  for (const issue of parsed.error?.issues ?? []) problem(issue.path.join('.'), wantedForm(issue));
  const values = parsed.data;
  if (values && values.HTTP_REQUEST_TIMEOUT > 0 && values.HTTP_REQUEST_TIMEOUT < values.HTTP_HEADERS_TIMEOUT)
    problem('HTTP_REQUEST_TIMEOUT', '0 or at least HTTP_HEADERS_TIMEOUT (the headers are part of the request)');
  const sqlitePath = values?.SQLITE_PATH ?? String(cleaned.SQLITE_PATH ?? '');
  const needsDataFolder = !cleaned.SQL_DSN || !cleaned.SESSION_SECRET;
  if (sqlitePath && needsDataFolder && !writableFolder(dirname(resolve(sqlitePath))))
    problem('SQLITE_PATH', 'a file in a folder this process can create or write to');
  if (wanted.size > 0 || !values)
    throw new ConfigError([...wanted].map(([name, forms]) => `invalid setting ${name}: wants ${forms.join(' and ')}`));
  return { ...values, redisEnabled: values.REDIS_CONN_STRING !== '', isMaster: values.NODE_TYPE === 'master' };
}

/** The configuration, with a SESSION_SECRET generated and kept in the data folder when none is set. */
export const withSessionSecret = (checked: CheckedEnvironment): Config =>
  Object.freeze({ ...checked, SESSION_SECRET: checked.SESSION_SECRET || persistentSecret(checked.SQLITE_PATH) });

/** True when the folder exists and is writable, or its nearest existing parent is (it can then be created). */
function writableFolder(folder: string): boolean {
  for (let current = folder; ; current = dirname(current)) {
    if (existsSync(current)) {
      try {
        accessSync(current, constants.W_OK | constants.X_OK);
        return statSync(current).isDirectory();
      } catch {
        return false;
      }
    }
    if (dirname(current) === current) return false;
  }
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
