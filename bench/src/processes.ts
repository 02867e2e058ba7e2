import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/** A child process the benchmark started, and how to stop it. */
export interface Started {
  process: ChildProcess;
  pid: number;
  stop(): Promise<void>;
}

export function startProcess(command: string, args: string[], env: Record<string, string>, cwd: string): Started {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr?.on('data', (data: Buffer) => {
    if (process.env.BENCH_VERBOSE) process.stderr.write(data);
  });
  // Read stdout too (the server logs there): a full pipe nobody reads would block the child's writes.
  child.stdout?.on('data', (data: Buffer) => {
    if (process.env.BENCH_VERBOSE) process.stderr.write(data);
  });
  return {
    process: child,
    pid: child.pid!,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

/** The first line a process prints (the mock prints its port). */
export function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve(line.trim()));
    child.once('exit', (code) => reject(new Error(`process exited with ${code} before printing`)));
  });
}

/** Polls until `check` succeeds (bounded: 240 tries, 250 ms apart: a busy machine starts a server slowly). */
export async function waitUntil(description: string, check: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 240; attempt++) {
    try {
      if (await check()) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${description} did not come up`);
}
