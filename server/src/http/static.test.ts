import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { pickEncoding } from './static.js';

/** A raw HTTP exchange (fetch would decode the body and hide what was sent). */
function rawRequest(
  url: string,
  options: { method?: string; acceptEncoding?: string } = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers = options.acceptEncoding === undefined ? {} : { 'accept-encoding': options.acceptEncoding };
    const outgoing = httpRequest(url, { method: options.method ?? 'GET', headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** A bundle-like script, long enough for compression to pay. */
const script = Array.from({ length: 200 }, (_, index) => `export const value${index} = 'value number ${index}';`).join(
  '\n',
);
const indexHtml = `<!doctype html><html><head><title>console</title>${'<link rel="modulepreload" href="/assets/x.js">'.repeat(20)}</head><body></body></html>`;

describe('console serving and unknown paths', () => {
  let server: TestServer;
  const webDist = mkdtempSync(join(tmpdir(), 'modelgate-web-'));
  beforeAll(async () => {
    mkdirSync(join(webDist, 'assets'));
    writeFileSync(join(webDist, 'index.html'), indexHtml);
    writeFileSync(join(webDist, 'assets', 'app-1234.js'), 'console.log(1)');
    // As the build leaves them: an asset with its brotli and gzip siblings, the logo without.
    writeFileSync(join(webDist, 'assets', 'entry-5678.js'), script);
    writeFileSync(join(webDist, 'assets', 'entry-5678.js.br'), brotliCompressSync(script));
    writeFileSync(join(webDist, 'assets', 'entry-5678.js.gz'), gzipSync(script));
    writeFileSync(join(webDist, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    server = await startTestServer({ env: { WEB_DIST: webDist } });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  test('the root and every console route answer index.html, never cached', async () => {
    for (const path of ['/', '/token', '/channel/edit/3', '/user/reset?email=a@b.c&token=x']) {
      const response = await fetch(server.url + path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toBe(indexHtml);
    }
  });

  test('hashed assets are served with a cache lifetime of a year; other files are revalidated', async () => {
    const response = await fetch(`${server.url}/assets/app-1234.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await response.text()).toBe('console.log(1)');
    const logo = await fetch(`${server.url}/logo.svg`);
    expect(logo.status).toBe(200);
    expect(logo.headers.get('cache-control')).toBe('no-cache');
  });

  test('an asset is sent pre-compressed in the best encoding the client accepts, with its length', async () => {
    const url = `${server.url}/assets/entry-5678.js`;
    const cases = [
      { acceptEncoding: 'gzip, deflate, br, zstd', encoding: 'br', decode: brotliDecompressSync },
      { acceptEncoding: 'gzip', encoding: 'gzip', decode: gunzipSync },
      { acceptEncoding: 'br;q=0, gzip;q=0.5', encoding: 'gzip', decode: gunzipSync },
      { acceptEncoding: 'identity', encoding: undefined, decode: (body: Buffer) => body },
      { acceptEncoding: undefined, encoding: undefined, decode: (body: Buffer) => body },
    ];
    for (const { acceptEncoding, encoding, decode } of cases) {
      const response = await rawRequest(url, { acceptEncoding });
      expect(response.status, acceptEncoding).toBe(200);
      expect(response.headers['content-encoding'], acceptEncoding).toBe(encoding);
      expect(response.headers['content-type'], acceptEncoding).toMatch(/^text\/javascript|^application\/javascript/);
      expect(response.headers.vary, acceptEncoding).toMatch(/accept-encoding/i);
      expect(response.headers['cache-control'], acceptEncoding).toBe('public, max-age=31536000, immutable');
      expect(Number(response.headers['content-length']), acceptEncoding).toBe(response.body.length);
      expect(decode(response.body).toString(), acceptEncoding).toBe(script);
      if (encoding) expect(response.body.length).toBeLessThan(script.length / 3);
    }
    const head = await rawRequest(url, { method: 'HEAD', acceptEncoding: 'gzip, br' });
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(Number(head.headers['content-length'])).toBe(brotliCompressSync(script).length);
    expect(head.body.length).toBe(0);
  });

  test('the compressed siblings are not files of their own', async () => {
    const response = await rawRequest(`${server.url}/assets/entry-5678.js.br`);
    expect(response.status).toBe(404);
  });

  test('console routes get index.html compressed, never cached, and HEAD answers its headers', async () => {
    for (const [acceptEncoding, encoding, decode] of [
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
      ['identity', undefined, (body: Buffer) => body],
    ] as const) {
      const response = await rawRequest(`${server.url}/token`, { acceptEncoding });
      expect(response.status, acceptEncoding).toBe(200);
      expect(response.headers['content-encoding'], acceptEncoding).toBe(encoding);
      expect(response.headers['cache-control'], acceptEncoding).toBe('no-cache');
      expect(response.headers.vary, acceptEncoding).toMatch(/accept-encoding/i);
      expect(Number(response.headers['content-length']), acceptEncoding).toBe(response.body.length);
      expect(decode(response.body).toString(), acceptEncoding).toBe(indexHtml);
      const head = await rawRequest(`${server.url}/token`, { method: 'HEAD', acceptEncoding });
      expect(head.status, acceptEncoding).toBe(200);
      expect(head.headers['content-encoding'], acceptEncoding).toBe(encoding);
      expect(head.headers['content-length'], acceptEncoding).toBe(response.headers['content-length']);
      expect(head.body.length, acceptEncoding).toBe(0);
    }
  });

  test('a missing asset answers 404, not the console page', async () => {
    const response = await fetch(`${server.url}/assets/gone-0000.js`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).not.toContain('text/html');
  });

  test('unknown API and relay paths answer 404 in their own shapes', async () => {
    const api = await fetch(`${server.url}/api/no-such-thing`);
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ success: false, message: 'Invalid URL (GET /api/no-such-thing)' });
    const relay = await fetch(`${server.url}/v1/no-such-thing`, { method: 'POST' });
    expect(relay.status).toBe(404);
    expect((await relay.json()).error).toMatchObject({
      message: 'Invalid URL (POST /v1/no-such-thing)',
      type: 'invalid_request_error',
    });
    const post = await fetch(`${server.url}/token`, { method: 'POST' });
    expect(post.status).toBe(404);
  });
});

describe('pickEncoding', () => {
  test('prefers brotli, then gzip, and honours q=0 and *', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip;q=1.0, br;q=0')).toBe('gzip');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('*;q=0, gzip')).toBe('gzip');
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding('')).toBeNull();
    expect(pickEncoding(undefined)).toBeNull();
  });
});
