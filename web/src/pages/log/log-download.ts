import { consoleLanguageHeaders } from '../../api/client';

/** Progress of a CSV download: rows and bytes received so far, and the rows expected when the server knows. */
export interface DownloadProgress {
  rows: number;
  bytes: number;
  totalRows: number | null;
}

/**
 * Counts CSV records in a byte stream chunk by chunk: a line feed ends a record unless it sits inside a quoted
 * cell (a quote toggles quoting; a doubled quote toggles twice). The heading line is not a row.
 */
export class CsvRowCounter {
  private quoted = false;
  private lines = 0;

  add(chunk: Uint8Array): void {
    for (const byte of chunk) {
      if (byte === 0x22) this.quoted = !this.quoted;
      else if (byte === 0x0a && !this.quoted) this.lines++;
    }
  }

  get rows(): number {
    return Math.max(this.lines - 1, 0);
  }
}

/** The server's message in a JSON error answer, else the HTTP status. */
async function failureMessage(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { message?: unknown };
    if (typeof body.message === 'string' && body.message) return body.message;
  } catch {
    // not JSON
  }
  return `HTTP ${response.status}`;
}

/** The file name in a content-disposition header, or the fallback. */
export function attachmentName(header: string | null, fallback: string): string {
  return /filename="([^"]+)"/.exec(header ?? '')?.[1] ?? fallback;
}

/**
 * Downloads a CSV export with fetch, reading the body as it streams and reporting progress after each chunk;
 * answers the file as a Blob and its name. Throws an Error with the server's message when it refuses.
 */
export async function downloadCsv(
  url: string,
  onProgress: (progress: DownloadProgress) => void,
  signal?: AbortSignal,
  fetcher: typeof fetch = fetch,
): Promise<{ blob: Blob; fileName: string }> {
  const response = await fetcher(url, { credentials: 'same-origin', signal, headers: consoleLanguageHeaders() });
  if (!response.ok || !(response.headers.get('content-type') ?? '').startsWith('text/csv'))
    throw new Error(await failureMessage(response));
  const total = response.headers.get('x-total-count');
  const totalRows = total !== null && /^\d+$/.test(total) ? Number(total) : null;
  const counter = new CsvRowCounter();
  const parts: BlobPart[] = [];
  let bytes = 0;
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value as Uint8Array<ArrayBuffer>);
    bytes += value.byteLength;
    counter.add(value);
    onProgress({ rows: counter.rows, bytes, totalRows });
  }
  const fileName = attachmentName(response.headers.get('content-disposition'), 'logs.csv');
  return { blob: new Blob(parts, { type: 'text/csv;charset=utf-8' }), fileName };
}

/** Hands a Blob to the browser as a download. */
export function saveBlob(blob: Blob, fileName: string): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

/** Share of the expected rows received, whole percent, never past 100 (rows written meanwhile). */
export const exportPercent = (rows: number, total: number): number =>
  total > 0 ? Math.min(100, Math.floor((rows / total) * 100)) : 100;
