import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../../server/test/api-client.ts';
import { startOAuthServer, type TestOAuthServer } from '../../server/test/oauth-server.ts';
import { startSmtpServer, type TestSmtpServer } from '../../server/test/smtp-server.ts';
import { repositoryRoot, webDist } from './paths.ts';

/**
 * The real server's entry point: server/src/main.ts through tsx, or its build (server/dist/main.js) when
 * MODELGATE_TEST_SERVER_DIST=1, which `npm test` sets after building server and wire once (a start through tsx
 * takes about twice as long).
 */
function serverEntry(): string[] {
  if (process.env.MODELGATE_TEST_SERVER_DIST === '1') return [join(repositoryRoot, 'server', 'dist', 'main.js')];
  return [
    join(repositoryRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
    join(repositoryRoot, 'server', 'src', 'main.ts'),
  ];
}

/** The real server with local stand-ins for GitHub, Lark, WeChat, Turnstile and SMTP. */
/** The secret the stack's server signs its session cookie with (tests/session-age.ts signs an aged one). */
export const sessionSecret = 'e2e-session-secret-0123456789abcdef';

export interface Stack {
  baseUrl: string;
  oauth: TestOAuthServer;
  smtp: TestSmtpServer;
  /** A management API client signed in as root. */
  root: ApiClient;
  /** A fresh API client without a session. */
  client(): ApiClient;
  /** Saves options as root (PUT /api/option/). */
  setOptions(options: Record<string, string | number | boolean>): Promise<void>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function waitForStatus(baseUrl: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output()}`);
    try {
      const response = await fetch(`${baseUrl}/api/status`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server did not answer /api/status in time:\n${output()}`);
}

export async function startStack(): Promise<Stack> {
  const oauth = await startOAuthServer();
  const smtp = await startSmtpServer();
  const port = await freePort();
  const directory = mkdtempSync(join(tmpdir(), 'modelgate-e2e-'));
  // Serve a copy of the built console, so that a rebuild of web/dist during the run cannot pull files away.
  const consoleCopy = join(directory, 'web-dist');
  cpSync(webDist, consoleCopy, { recursive: true });
  const serverUrl = `http://127.0.0.1:${port}`;
  let log = '';
  const child = spawn(process.execPath, serverEntry(), {
    cwd: directory,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SQLITE_PATH: join(directory, 'modelgate.db'),
      SESSION_SECRET: sessionSecret,
      WEB_DIST: consoleCopy,
      LOG_LEVEL: 'warn',
      GLOBAL_API_RATE_LIMIT: '0',
      GLOBAL_WEB_RATE_LIMIT: '0',
      CRITICAL_RATE_LIMIT: '0',
      GITHUB_OAUTH_BASE_URL: oauth.url,
      GITHUB_API_BASE_URL: oauth.url,
      LARK_OPEN_BASE_URL: oauth.url,
      LARK_PASSPORT_BASE_URL: oauth.url,
      TURNSTILE_VERIFY_URL: `${oauth.url}/turnstile/v0/siteverify`,
      UPDATE_CHECK_URL: `${oauth.url}/update-check`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  try {
    await waitForStatus(serverUrl, child, () => log);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }

  const baseUrl = serverUrl;
  const root = new ApiClient(baseUrl);
  await root.login('root', '123456');
  const setOptions = async (options: Record<string, string | number | boolean>) => {
    for (const [key, value] of Object.entries(options)) {
      let response = await root.put('/api/option/', { key, value: String(value) });
      // Price options ask a session signed in over five minutes ago to confirm its password (decision 0030).
      if (response.body.data?.require_reauth === true) {
        await root.post('/api/user/reauth', { password: '123456' });
        response = await root.put('/api/option/', { key, value: String(value) });
      }
      if (!response.body.success) throw new Error(`option ${key}: ${response.body.message}`);
    }
  };
  await setOptions({
    SMTPServer: smtp.host,
    SMTPPort: smtp.port,
    SMTPAccount: 'gateway@example.test',
    SMTPFrom: 'gateway@example.test',
    SMTPToken: 'smtp-password',
    ServerAddress: baseUrl,
  });

  return {
    baseUrl,
    oauth,
    smtp,
    root,
    client: () => new ApiClient(baseUrl),
    setOptions,
    async stop() {
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      });
      await oauth.close();
      await smtp.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
