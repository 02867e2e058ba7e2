import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { freePort } from './node-process.js';

/** A private redis-server child on 127.0.0.1, which a test may kill and start again on the same port. */
export interface RedisProcess {
  readonly port: number;
  readonly url: string;
  /** SIGKILLs the server (no clean shutdown) and waits for it to exit. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty (no persistence), and waits until it answers PING. */
  start(): Promise<void>;
}

/** True when something on the port answers PING with PONG. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

/** Starts `redis-server --port <free port> --save '' --appendonly no`; stop it with `kill` in afterAll. */
export async function startRedisProcess(): Promise<RedisProcess> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const redis: RedisProcess = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async kill() {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
      running.kill('SIGKILL');
      await exited;
    },
    async start() {
      if (child) throw new Error('redis-server is already running');
      const started = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: 'ignore' },
      );
      child = started;
      const failed = new Promise<never>((_, reject) => started.once('error', reject));
      failed.catch(() => undefined);
      for (let attempt = 0; attempt < 100; attempt++) {
        if (started.exitCode !== null) throw new Error(`redis-server exited with ${started.exitCode}`);
        if (await Promise.race([answersPing(port), failed])) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`redis-server did not answer on port ${port} within 5 s`);
    },
  };
  await redis.start();
  return redis;
}
