import { spawn } from 'node:child_process';

/** What a real client process left behind: its exit code and everything it printed. */
export interface ClientProcessRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a real client (Claude Code, Codex, Gemini CLI) to its end with only the given environment, no stdin,
 * and a hard timeout after which it is killed (a client waiting on something that never comes must not hang
 * the suite).
 */
export function runClientProcess(
  binary: string,
  args: readonly string[],
  options: { cwd: string; env: Record<string, string | undefined>; timeoutMs: number },
): Promise<ClientProcessRun> {
  const child = spawn(binary, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
  return new Promise((resolve) => {
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
