/** A request to the reader thread: one compiled query and its parameters. */
export interface ReaderRequest {
  id: number;
  sql: string;
  parameters: readonly unknown[];
}

/** The reader thread's answer: the rows, or the error's message and code. */
export type ReaderResponse =
  { id: number; rows: unknown[] } | { id: number; error: { message: string; code?: string } };

/** What the thread is started with. */
export interface ReaderWorkerData {
  /** The resolved path of better-sqlite3, so the thread loads the same module as the server. */
  driverPath: string;
  file: string;
  busyTimeoutMs: number;
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
  // Read-only: a write sent here by mistake fails loudly instead of bypassing the server's write path.
  const database = new Driver(data.file, { readonly: true, fileMustExist: true });
  database.pragma(`busy_timeout = ${data.busyTimeoutMs}`);
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
