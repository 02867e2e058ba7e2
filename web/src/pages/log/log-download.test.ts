import { describe, expect, it } from 'vitest';
import { attachmentName, CsvRowCounter, downloadCsv, type DownloadProgress } from './log-download';

const encoder = new TextEncoder();

/** A fetch that answers the given chunks as a stream, with the given headers and status. */
function fakeFetch(chunks: string[], headers: Record<string, string>, status = 200): typeof fetch {
  return async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
          controller.close();
        },
      }),
      { status, headers },
    );
}

describe('CSV download progress', () => {
  it('counts records, not line breaks inside quoted cells, across chunk boundaries', () => {
    const counter = new CsvRowCounter();
    for (const chunk of ['\uFEFFtime,content\r\n', '2024,"a\r\nb', ', ""c""\r\n"\r\n2024,x', '\r\n'])
      counter.add(encoder.encode(chunk));
    expect(counter.rows).toBe(2);
  });

  it('reports rows, bytes and the expected total as chunks arrive, and names the file', async () => {
    const chunks = ['\uFEFFtime,type\r\n', '1,a\r\n2,b\r\n', '3,"c\nd"\r\n'];
    const seen: DownloadProgress[] = [];
    const { blob, fileName } = await downloadCsv(
      '/api/log/export',
      (progress) => seen.push(progress),
      undefined,
      fakeFetch(chunks, {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': 'attachment; filename="logs-2026-01-02.csv"',
        'x-total-count': '3',
      }),
    );
    expect(seen.map((progress) => progress.rows)).toEqual([0, 2, 3]);
    expect(seen.at(-1)).toEqual({ rows: 3, bytes: encoder.encode(chunks.join('')).byteLength, totalRows: 3 });
    expect(fileName).toBe('logs-2026-01-02.csv');
    expect(blob.size).toBe(encoder.encode(chunks.join('')).byteLength);
  });

  it('without a count header the total stays unknown', async () => {
    const seen: DownloadProgress[] = [];
    await downloadCsv(
      '/x',
      (progress) => seen.push(progress),
      undefined,
      fakeFetch(['h\r\n1\r\n'], { 'content-type': 'text/csv' }),
    );
    expect(seen.at(-1)).toEqual({ rows: 1, bytes: 6, totalRows: null });
  });

  it("throws the server's message when the export is refused", async () => {
    const refused: typeof fetch = async () =>
      new Response(JSON.stringify({ success: false, message: '你已有一个日志导出正在进行' }), {
        status: 429,
        headers: { 'content-type': 'application/json' },
      });
    await expect(downloadCsv('/x', () => {}, undefined, refused)).rejects.toThrow('你已有一个日志导出正在进行');
  });

  it('reads the file name from content-disposition, with a fallback', () => {
    expect(attachmentName('attachment; filename="logs-1.csv"', 'f.csv')).toBe('logs-1.csv');
    expect(attachmentName(null, 'f.csv')).toBe('f.csv');
  });
});
