/** What the thread is asked: an import request's body, or a models.dev file on the server's disk. */
export type PriceFileRequest =
  | { body: Uint8Array; limitBytes: number }
  | { path: string; providers: readonly string[] | undefined; limitBytes: number };

/** One model of the file: where it was listed and its cost as written (read by priceFromCost). */
export interface PriceFileEntry {
  provider: string;
  model: string;
  cost: unknown;
}

/** Where a file is not JSON, in our own words (never its bytes). */
export interface PriceFileProblem {
  problem: string;
  line?: number;
  column?: number;
  /** 0-based offset in characters. */
  position?: number;
}

/**
 * The thread's messages, in order: batches of entries, then `done` with the body's other fields (a body
 * request) or a `failed` problem.
 */
export type PriceFileMessage =
  | { entries: PriceFileEntry[] }
  | { done: true; envelope: Record<string, unknown> | undefined }
  | { failed: PriceFileProblem };

type RequireFunction = (id: string) => unknown;

/**
 * The price file thread's body: parses the JSON (a models.dev file is megabytes: 100,000 models took over a
 * second of the event loop), walks `{ <provider>: { models: { <id>: { cost } } } }` and posts the entries in
 * batches, which the server reads between other requests. A failure is told by line and column with what was
 * expected, never with the file's text. It runs as an eval'd CommonJS script (see price-file.ts), so it uses
 * only its parameter and nothing imported: the server runs as TypeScript in tests and as JavaScript built.
 */
export function priceFileWorker(load: RequireFunction): void {
  const { parentPort, workerData } = load('node:worker_threads') as typeof import('node:worker_threads');
  const { readFileSync, statSync } = load('node:fs') as typeof import('node:fs');
  const request = workerData as PriceFileRequest;
  const post = (message: PriceFileMessage) => parentPort?.postMessage(message);
  const isRecord = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);

  /** The offset of the first error in `text` and what was expected there; run only once JSON.parse failed. */
  function firstError(text: string): { at: number; expected: string } {
    const n = text.length;
    let i = 0;
    const stack: string[] = [];
    const number = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    const space = () => {
      while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
    };
    const fail = (expected: string) => ({ at: i, expected });
    const string = (): { at: number; expected: string } | undefined => {
      i++;
      while (i < n) {
        const code = text.charCodeAt(i);
        if (code === 0x22) {
          i++;
          return undefined;
        }
        if (code < 0x20) return fail('no control character inside a string');
        if (code === 0x5c) {
          const next = text[i + 1] ?? '';
          if (next === 'u') {
            if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return fail('four hex digits after \\u');
            i += 6;
          } else if ('"\\/bfnrt'.includes(next) && next !== '') i += 2;
          else return fail('a valid escape after a backslash');
        } else i++;
      }
      return fail('the end of a string (a closing quote)');
    };
    for (;;) {
      // A value.
      space();
      const c = text[i];
      if (c === '{' || c === '[') {
        stack.push(c);
        i++;
        space();
        if (text[i] === (c === '{' ? '}' : ']')) {
          stack.pop();
          i++;
        } else if (c === '{') {
          if (text[i] !== '"') return fail('a property name in double quotes or }');
          const problem = string();
          if (problem) return problem;
          space();
          if (text[i] !== ':') return fail(': after a property name');
          i++;
          continue;
        } else continue;
      } else if (c === '"') {
        const problem = string();
        if (problem) return problem;
      } else if (c === 't' || c === 'f' || c === 'n') {
        const word = c === 't' ? 'true' : c === 'f' ? 'false' : 'null';
        if (text.slice(i, i + word.length) !== word) return fail('a value');
        i += word.length;
      } else {
        number.lastIndex = i;
        if (i >= n || !number.test(text)) return fail(i >= n ? 'a value, not the end of the file' : 'a value');
        i = number.lastIndex;
      }
      // After a value: the next member or element, or the end of its container.
      for (;;) {
        space();
        const top = stack.at(-1);
        if (top === undefined) return i < n ? fail('nothing after the JSON value') : fail('valid JSON');
        const close = top === '{' ? '}' : ']';
        if (text[i] === close) {
          stack.pop();
          i++;
          continue;
        }
        if (text[i] !== ',') return fail(i >= n ? `, or ${close}, not the end of the file` : `, or ${close}`);
        i++;
        if (top === '{') {
          space();
          if (text[i] !== '"') return fail('a property name in double quotes');
          const problem = string();
          if (problem) return problem;
          space();
          if (text[i] !== ':') return fail(': after a property name');
          i++;
        }
        break;
      }
    }
  }

  function parse(text: string): unknown {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      const { at, expected } = firstError(text);
      const before = text.slice(0, at);
      const line = before.split('\n').length;
      const column = at - before.lastIndexOf('\n');
      throw Object.assign(new Error('not JSON'), {
        problem: { problem: `not valid JSON: expected ${expected}`, line, column, position: at },
      });
    }
  }

  /** Posts the file's models in batches, so the server reads them between other requests. */
  function walk(data: unknown, providers: readonly string[] | undefined): void {
    if (!isRecord(data)) return;
    const wanted = providers ? new Set(providers) : undefined;
    let batch: PriceFileEntry[] = [];
    for (const [provider, entry] of Object.entries(data)) {
      if (wanted && !wanted.has(provider)) continue;
      if (!isRecord(entry) || !isRecord(entry.models)) continue;
      for (const [key, model] of Object.entries(entry.models)) {
        if (!isRecord(model)) continue;
        const id = typeof model.id === 'string' && model.id ? model.id : key;
        batch.push({ provider, model: id, cost: model.cost });
        if (batch.length === 2000) {
          post({ entries: batch });
          batch = [];
        }
      }
    }
    if (batch.length > 0) post({ entries: batch });
  }

  try {
    if ('path' in request) {
      if (statSync(request.path).size > request.limitBytes)
        throw Object.assign(new Error('too large'), { problem: { problem: 'larger than the import limit' } });
      walk(parse(readFileSync(request.path, 'utf8')), request.providers);
      post({ done: true, envelope: undefined });
    } else {
      const body = parse(Buffer.from(request.body).toString('utf8'));
      if (!isRecord(body))
        throw Object.assign(new Error('not an object'), { problem: { problem: 'not a JSON object' } });
      const { data, ...envelope } = body;
      const providers = Array.isArray(envelope.providers) ? (envelope.providers as unknown[]) : undefined;
      if (providers?.every((provider) => typeof provider === 'string') !== false) walk(data, providers as string[]);
      // The data itself stays here: the server checks only its kind.
      const kindOnly = isRecord(data)
        ? {}
        : Array.isArray(data)
          ? []
          : typeof data === 'string'
            ? ''
            : typeof data === 'number'
              ? 0
              : typeof data === 'boolean'
                ? false
                : null;
      post({ done: true, envelope: data === undefined ? envelope : { ...envelope, data: kindOnly } });
    }
  } catch (error) {
    const problem = (error as { problem?: PriceFileProblem }).problem;
    const code = (error as { code?: string }).code;
    post({
      failed: problem ?? {
        problem:
          code === 'ENOENT'
            ? 'no such file'
            : code === 'EACCES'
              ? 'not readable by the server'
              : code === 'EISDIR'
                ? 'a folder, not a file'
                : 'unreadable',
      },
    });
  }
}
