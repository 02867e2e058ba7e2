import { Worker } from 'node:worker_threads';
import { AppError } from '../../lib/errors.js';
import {
  priceFileWorker,
  type PriceFileEntry,
  type PriceFileMessage,
  type PriceFileProblem,
  type PriceFileRequest,
} from './price-file.worker.js';

export type { PriceFileEntry } from './price-file.worker.js';

const workerSource = `(${priceFileWorker.toString()})(require);`;

/** Larger than models.dev's whole api.json (a few MB). */
export const importLimitBytes = 32 * 1024 * 1024;

/** What an import request's body or file held: its models, and the body's other fields (not for a file). */
export interface PriceFileContent {
  entries: PriceFileEntry[];
  envelope: Record<string, unknown> | undefined;
}

function unreadable(what: 'body' | 'file', { problem, line, column, position }: PriceFileProblem): AppError {
  const where = line === undefined ? '' : ` (line ${line}, column ${column}, character ${(position ?? 0) + 1})`;
  const whereZh = line === undefined ? '' : `（第 ${line} 行第 ${column} 列，第 ${(position ?? 0) + 1} 个字符）`;
  return new AppError('price_file_unreadable', {
    zh: `${what === 'body' ? '导入的请求体' : '价格文件'}无法读取${whereZh}：${problem}`,
    en: `the ${what === 'body' ? 'import body' : 'price file'} cannot be read${where}: ${problem}`,
  });
}

/**
 * Reads an import body or a models.dev file in a thread of its own: parsing megabytes of JSON and walking
 * 100,000 models would stop every other request for seconds. The entries arrive in batches, each handled
 * as an event of its own. A failure says where and what was expected, never the file's text.
 */
export function readPriceSource(source: { body: Buffer } | { path: string; providers?: readonly string[] }) {
  const request: PriceFileRequest =
    'body' in source
      ? { body: source.body, limitBytes: importLimitBytes }
      : { path: source.path, providers: source.providers, limitBytes: importLimitBytes };
  const what = 'body' in source ? 'body' : 'file';
  return new Promise<PriceFileContent>((resolve, reject) => {
    const entries: PriceFileEntry[] = [];
    let settled = false;
    const worker = new Worker(workerSource, { eval: true, workerData: request });
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
      void worker.terminate();
    };
    worker.on('message', (message: PriceFileMessage) => {
      if ('entries' in message) for (const entry of message.entries) entries.push(entry);
      else if ('done' in message) finish(() => resolve({ entries, envelope: message.envelope }));
      else finish(() => reject(unreadable(what, message.failed)));
    });
    worker.on('error', () => finish(() => reject(unreadable(what, { problem: 'it nests too deep or is too large' }))));
    worker.on('exit', () => finish(() => reject(unreadable(what, { problem: 'the reader stopped' }))));
  });
}
