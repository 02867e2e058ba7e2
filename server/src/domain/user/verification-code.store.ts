import type { AppContext } from '../../context.js';

/** `verification`: the 6-character email code; `reset`: the password-reset link token. */
export type CodePurpose = 'verification' | 'reset';

/** Codes are valid for 10 minutes, as in one-api. */
export const codeValidMinutes = 10;
const validMs = codeValidMinutes * 60_000;

interface CodeBackend {
  save(key: string, code: string): Promise<void>;
  /** Deletes the code and answers true only when it matched: a code works once, on any node. */
  consume(key: string, code: string): Promise<boolean>;
}

class MemoryCodes implements CodeBackend {
  private readonly codes = new Map<string, { code: string; expiresAt: number }>();

  async save(key: string, code: string): Promise<void> {
    const now = Date.now();
    for (const [entryKey, entry] of this.codes) if (entry.expiresAt <= now) this.codes.delete(entryKey);
    this.codes.set(key, { code, expiresAt: now + validMs });
  }

  async consume(key: string, code: string): Promise<boolean> {
    const entry = this.codes.get(key);
    if (!entry || entry.expiresAt <= Date.now() || entry.code !== code) return false;
    this.codes.delete(key);
    return true;
  }

  forget(key: string): void {
    this.codes.delete(key);
  }
}

// Compare and delete in one step, so two nodes (or two requests) cannot both use one code.
const consumeScript = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/**
 * Codes in Redis, shared by every node. While Redis does not answer, a code is kept in this process: the
 * user must then enter it on the node that sent it (behind a load balancer, a retry may land elsewhere and
 * be told the code is wrong), which beats refusing to send codes at all. Such a code stays usable here after
 * Redis returns, until it expires or is replaced.
 */
class RedisCodes implements CodeBackend {
  private readonly local = new MemoryCodes();

  constructor(
    private readonly redis: NonNullable<AppContext['redis']>,
    private readonly logger: AppContext['logger'],
  ) {}

  async save(key: string, code: string): Promise<void> {
    try {
      await this.redis.set(key, code, 'PX', validMs);
      this.local.forget(key); // a code replaced in Redis no longer counts here
    } catch (error) {
      this.logger.warn({ err: error }, 'verification code kept on this node only (redis unreachable)');
      await this.local.save(key, code);
    }
  }

  async consume(key: string, code: string): Promise<boolean> {
    if (await this.local.consume(key, code)) return true;
    try {
      return Number(await this.redis.eval(consumeScript, 1, key, code)) === 1;
    } catch (error) {
      this.logger.warn({ err: error }, 'verification codes saved on other nodes are unreadable (redis unreachable)');
      return false;
    }
  }
}

const backends = new WeakMap<AppContext, CodeBackend>();

function backendOf(context: AppContext): CodeBackend {
  let backend = backends.get(context);
  if (!backend) {
    backend = context.redis ? new RedisCodes(context.redis, context.logger) : new MemoryCodes();
    backends.set(context, backend);
  }
  return backend;
}

const keyOf = (purpose: CodePurpose, email: string) => `verification-code:${purpose}:${email.toLowerCase()}`;

/** Stores a code for an email (replacing an earlier one): in Redis when configured, so every node shares it. */
export const saveCode = (context: AppContext, purpose: CodePurpose, email: string, code: string) =>
  backendOf(context).save(keyOf(purpose, email), code);

/** Uses up a code: true when it was right and unexpired; it cannot be used again. */
export const consumeCode = (context: AppContext, purpose: CodePurpose, email: string, code: string) =>
  code === '' ? Promise.resolve(false) : backendOf(context).consume(keyOf(purpose, email), code);
