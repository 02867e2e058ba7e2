/** A request to the SQLite thread: one compiled query and its parameters. */
export interface ReaderRequest {
  id: number;
  sql: string;
  parameters: readonly unknown[];
}

/** The thread's answer: the rows, or the error's message and code. */
export type ReaderResponse =
  { id: number; rows: unknown[] } | { id: number; error: { message: string; code?: string } };

/** The message that ends the thread: a last checkpoint, then both connections close. */
export const closeMessage = 'close';
type CloseMessage = typeof closeMessage;

/** When the thread checkpoints the WAL (sqlite-checkpointer.ts). */
export interface CheckpointSchedule {
  /** A PASSIVE checkpoint at least this often. */
  intervalMs: number;
  /** How often the WAL file's size is looked at. */
  pollMs: number;
  /** A checkpoint sooner once the WAL has grown by this much since the last. */
  walStepBytes: number;
}

/** What the thread is started with. */
export interface SqliteThreadData {
  /** The resolved path of better-sqlite3, so the thread loads the same module as the server. */
  driverPath: string;
  file: string;
  busyTimeoutMs: number;
  checkpoints: CheckpointSchedule;
}

type RequireFunction = (id: string) => unknown;

/**
 * The SQLite thread's body: heavy reads on a read-only connection, and the WAL's checkpoints on a connection of
 * their own (a read-only one cannot copy pages back). One thread for both: each Node thread is a V8 isolate of
 * its own, about 7 MiB of memory. It runs as an eval'd CommonJS script (see sqlite-thread.ts), so it must use
 * only its parameter and no import of this module: the server ships as TypeScript in tests and as JavaScript
 * when built, and an eval'd script runs the same in both.
 */
export function sqliteThreadWorker(load: RequireFunction): void {
  const { parentPort, workerData } = load('node:worker_threads') as typeof import('node:worker_threads');
  const { statSync } = load('node:fs') as typeof import('node:fs');
  const data = workerData as SqliteThreadData;
  const Driver = load(data.driverPath) as typeof import('better-sqlite3');
  // Read-only: a write sent here by mistake fails loudly instead of bypassing the server's write path.
  const database = new Driver(data.file, { readonly: true, fileMustExist: true });
  database.pragma(`busy_timeout = ${data.busyTimeoutMs}`);

  const schedule = data.checkpoints;
  const checkpointer = new Driver(data.file, { fileMustExist: true });
  checkpointer.pragma(`busy_timeout = ${data.busyTimeoutMs}`);
  const walFile = `${data.file}-wal`;
  const walBytes = () => {
    try {
      return statSync(walFile).size;
    } catch {
      return 0;
    }
  };
  // PASSIVE never blocks a writer or a reader; when busy, the next round catches up.
  const checkpoint = () => {
    try {
      checkpointer.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      /* busy */
    }
  };
  let last = { at: Date.now(), walBytes: 0 };
  const timer = setInterval(() => {
    const now = walBytes();
    if (now < last.walBytes) last.walBytes = now; // the WAL started over
    if (Date.now() - last.at < schedule.intervalMs && now - last.walBytes < schedule.walStepBytes) return;
    checkpoint();
    last = { at: Date.now(), walBytes: walBytes() };
  }, schedule.pollMs);
  const stopCheckpoints = () => {
    clearInterval(timer);
    checkpoint();
    checkpointer.close();
  };

  const statements = new Map<string, ReturnType<typeof database.prepare>>();
  parentPort?.on('message', (request: ReaderRequest | CloseMessage) => {
    // The literal: the eval'd body cannot see this module's constant.
    if (request === 'close') {
      stopCheckpoints();
      database.close();
      parentPort.close();
      return;
    }
    try {
      let statement = statements.get(request.sql);
      if (!statement) {
        statement = database.prepare(request.sql);
        if (statements.size >= 200) statements.delete(statements.keys().next().value as string);
        statements.set(request.sql, statement);
      }
      const parameters = request.parameters as unknown[];
      if (!statement.reader) statement.run(parameters); // fails: the connection is read-only
      const rows = statement.reader ? statement.all(parameters) : [];
      parentPort.postMessage({ id: request.id, rows } satisfies ReaderResponse);
    } catch (error) {
      const failure = error as { message?: string; code?: string };
      parentPort.postMessage({
        id: request.id,
        error: { message: String(failure.message ?? error), code: failure.code },
      } satisfies ReaderResponse);
    }
  });
}
