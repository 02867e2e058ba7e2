/** A request to the reader thread: one compiled query and its parameters. */
export interface ReaderRequest {
  id: number;
  sql: string;
  parameters: readonly unknown[];
}

/** The thread's answer: the rows (and, for a write, the rows it changed), or the error's message and code. */
export type ReaderResponse =
  { id: number; rows: unknown[]; changes?: number } | { id: number; error: { message: string; code?: string } };

/** What the thread is started with. */
export interface ReaderWorkerData {
  /** The resolved path of better-sqlite3, so the thread loads the same module as the server. */
  driverPath: string;
  file: string;
  busyTimeoutMs: number;
  /** A thread for background deletes: its connection may write. */
  writable: boolean;
}

type RequireFunction = (id: string) => unknown;

/**
 * The reader thread's body. It runs as an eval'd CommonJS script (see sqlite-reader.ts), so it must use only
 * its parameter and no import of this module: the server ships as TypeScript in tests and as JavaScript when
 * built, and an eval'd script runs the same in both.
 */
export function sqliteReaderWorker(load: RequireFunction): void {
  const { parentPort, workerData } = load('node:worker_threads') as typeof import('node:worker_threads');
  const data = workerData as ReaderWorkerData;
  const Driver = load(data.driverPath) as typeof import('better-sqlite3');
  // A reader is read-only: a write sent there by mistake fails loudly instead of bypassing the server's write
  // path. A writer leaves checkpoints to the checkpoint thread, as the server's connection does.
  const database = new Driver(data.file, { readonly: !data.writable, fileMustExist: true });
  database.pragma(`busy_timeout = ${data.busyTimeoutMs}`);
  if (data.writable) {
    database.pragma('synchronous = NORMAL');
    database.pragma('wal_autocheckpoint = 0');
  }
  const statements = new Map<string, ReturnType<typeof database.prepare>>();
  parentPort?.on('message', (request: ReaderRequest) => {
    try {
      let statement = statements.get(request.sql);
      if (!statement) {
        statement = database.prepare(request.sql);
        if (statements.size >= 200) statements.delete(statements.keys().next().value as string);
        statements.set(request.sql, statement);
      }
      const parameters = request.parameters as unknown[];
      if (!statement.reader) {
        const { changes } = statement.run(parameters); // on a reader, fails: the connection is read-only
        parentPort.postMessage({ id: request.id, rows: [], changes } satisfies ReaderResponse);
        return;
      }
      parentPort.postMessage({ id: request.id, rows: statement.all(parameters) } satisfies ReaderResponse);
    } catch (error) {
      const failure = error as { message?: string; code?: string };
      parentPort.postMessage({
        id: request.id,
        error: { message: String(failure.message ?? error), code: failure.code },
      } satisfies ReaderResponse);
    }
  });
}
