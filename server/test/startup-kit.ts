import { randomBytes } from 'node:crypto';
import type { Engine } from './engines.js';
import { startNodeProcess, type NodeProcess } from './node-process.js';
import { freshDatabase, type FreshDatabase } from './test-server.js';

/**
 * What the start-up tests start: node processes and fresh databases, all stopped and dropped by `cleanUp`
 * (afterAll), whatever a test did before failing. `slot` lets only a few starts run at once: the machine
 * has two cores, and a start is mostly CPU (tsx compiling the entry point).
 */
export class StartupScope {
  private readonly nodes: NodeProcess[] = [];
  private readonly databases: FreshDatabase[] = [];
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly concurrency: number) {}

  /** Runs `work` when fewer than `concurrency` others are running. */
  async slot<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  /** The real entry point with `env` (see startNodeProcess), stopped by cleanUp if the test does not. */
  async start(env: Record<string, string>): Promise<NodeProcess> {
    const node = await startNodeProcess(env);
    this.nodes.push(node);
    return node;
  }

  /** A new empty database of the engine: `env` holds its SQLITE_PATH or SQL_DSN. */
  async database(engine: Engine): Promise<FreshDatabase> {
    const database = await freshDatabase(engine);
    this.databases.push(database);
    return database;
  }

  async cleanUp(): Promise<void> {
    await Promise.all(this.nodes.map((node) => node.stop()));
    await Promise.all(this.databases.map((database) => database.drop()));
  }
}

/** Root's relay key and access token for INITIAL_ROOT_TOKEN / INITIAL_ROOT_ACCESS_TOKEN, new for each start. */
export function rootSecrets() {
  const key = randomBytes(20).toString('hex');
  const accessToken = randomBytes(16).toString('hex');
  return { key, accessToken, env: { INITIAL_ROOT_TOKEN: key, INITIAL_ROOT_ACCESS_TOKEN: accessToken } };
}

/** Adds an OpenAI channel for gpt-3.5-turbo at `baseUrl` through the management API, as root. */
export async function addChannel(node: NodeProcess, accessToken: string, baseUrl: string): Promise<void> {
  const response = await fetch(`${node.url}/api/channel/`, {
    method: 'POST',
    headers: { authorization: accessToken, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'mock', type: 1, key: 'sk-upstream', base_url: baseUrl, models: 'gpt-3.5-turbo' }),
  });
  const body = (await response.json()) as { success: boolean; message: string };
  if (!body.success) throw new Error(`adding a channel failed: ${body.message}`);
}

/** One chat completion through the relay with `sk-<key>`. */
export function chat(node: NodeProcess, key: string, signal?: AbortSignal): Promise<Response> {
  return fetch(`${node.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hello' }] }),
    signal,
  });
}

/** Polls `probe` every 100 ms until it returns true or `timeoutMs` passes; returns the last result. */
export async function eventually(probe: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
