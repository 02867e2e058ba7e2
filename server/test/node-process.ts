import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const serverDirectory = fileURLToPath(new URL('..', import.meta.url));

/**
 * How a test starts the server as its own process (cwd: server/): `src/main.ts` through tsx by default, or, when
 * MODELGATE_TEST_SERVER_DIST=1, the build `npm start` runs (`dist/main.js`, wire from wire/dist). `npm test` builds
 * both once and sets it (scripts/test.mjs): a start through tsx takes about twice as long, its loader hooks
 * handling every module, and the suite starts a hundred and more nodes. `nodeArgs` (preloads) go before the entry.
 */
export function serverEntryArgs(nodeArgs: string[] = []): string[] {
  if (process.env.MODELGATE_TEST_SERVER_DIST !== '1') return ['--import', 'tsx', ...nodeArgs, 'src/main.ts'];
  const built = join(serverDirectory, 'dist/main.js');
  if (!existsSync(built))
    throw new Error(`MODELGATE_TEST_SERVER_DIST=1 but ${built} is missing: run \`npm run build -w wire -w server\``);
  return [...nodeArgs, 'dist/main.js'];
}

/** A free port on 127.0.0.1 (taken by a listener, then let go). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A ModelGate node started the way an operator starts it: the real entry point, as its own process. */
export interface NodeProcess {
  url: string;
  port: number;
  process: ChildProcess;
  /** What it wrote to stderr and stdout (warnings and errors only, LOG_LEVEL=warn). */
  output: () => string;
  /** kill -9: no shutdown, nothing drained. */
  crash(): Promise<void>;
  /** SIGTERM, then waits for the exit (SIGKILL after 15 s). */
  stop(): Promise<number | null>;
}

/**
 * Starts the real entry point (see serverEntryArgs) with `env` on a free port and waits until /api/status
 * answers; `nodeArgs` go to node before the entry point (a preload); `port` (a restart on its predecessor's) is
 * a free one by default.
 */
export async function startNodeProcess(
  env: Record<string, string>,
  startTimeoutMs = 30_000,
  nodeArgs: string[] = [],
  port?: number,
): Promise<NodeProcess> {
  port ??= await freePort();
  const child = spawn(process.execPath, serverEntryArgs(nodeArgs), {
    cwd: serverDirectory,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SESSION_SECRET: 'test-session-secret-0123456789abcdef',
      GLOBAL_API_RATE_LIMIT: '100000',
      GLOBAL_WEB_RATE_LIMIT: '100000',
      CRITICAL_RATE_LIMIT: '100000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (data: Buffer) => (output += data.toString()));
  child.stderr!.on('data', (data: Buffer) => (output += data.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the node exited with ${child.exitCode} while starting:\n${output}`);
    try {
      if ((await fetch(`${url}/api/status`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the node did not answer /api/status within ${startTimeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    port,
    process: child,
    output: () => output,
    async crash() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** The node arguments that make a node process's wall clock run `seconds` off the machine's (negative: behind). */
export const clockOffset = (seconds: number) => [
  '--import',
  `${new URL('./clock-offset.mjs', import.meta.url).href}?seconds=${seconds}`,
];
