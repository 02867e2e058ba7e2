import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useSuite } from '../support/suite.ts';

const suite = useSuite();

/** The console's budget for the JavaScript index.html loads before any page chunk, gzipped (web/BUILD-SIZE.md). */
const INITIAL_JS_BUDGET = 250 * 1024;

/** How many scripts index.html may load before any page chunk (web/vite.config.ts groups the shell in one). */
const INITIAL_JS_FILES = 3;

/** A file the build leaves uncompressed because gzip would not make it smaller (a chunk of a few dozen bytes). */
const incompressible = (body: Buffer) => gzipSync(body, { level: 9 }).length >= body.length;

/** The headers of a GET with this Accept-Encoding, and the bytes that crossed the wire. */
function rawGet(url: string, acceptEncoding: string): Promise<{ headers: Record<string, string>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { headers: { 'accept-encoding': acceptEncoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ headers: response.headers as Record<string, string>, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** The scripts index.html loads before any route chunk: the entry and its modulepreloads. */
async function initialScripts(baseUrl: string): Promise<string[]> {
  const html = await (await fetch(`${baseUrl}/`)).text();
  return [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((match) => match[1] as string);
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

describe('the console’s static files', () => {
  it('keeps the initial JavaScript within its budget, gzipped as the server sends it', async () => {
    const scripts = await initialScripts(suite.stack.baseUrl);
    expect(scripts.length).toBeGreaterThan(0);
    let gzipped = 0;
    const notGzipped: string[] = [];
    for (const script of scripts) {
      const answer = await rawGet(suite.stack.baseUrl + script, 'gzip');
      if (answer.headers['content-encoding'] !== 'gzip' && !incompressible(answer.body)) notGzipped.push(script);
      expect(Number(answer.headers['content-length']), script).toBe(answer.body.length);
      gzipped += answer.body.length;
    }
    console.log(`initial JS: ${scripts.length} files, ${kib(gzipped)} as sent to a gzip client`);
    expect(notGzipped).toEqual([]);
    expect(gzipped).toBeLessThanOrEqual(INITIAL_JS_BUDGET);
    // The shell in one chunk with the entry, plus the bundler's runtime: were 30 files (issue 33 point 9), each a
    // request queued behind the browser's six connections before anything showed.
    expect(scripts.length).toBeLessThanOrEqual(INITIAL_JS_FILES);
  });

  it('sends every script, style and page of a first visit to /token compressed and cacheable', async () => {
    const context = await suite.browser.newContext({
      baseURL: suite.stack.baseUrl,
      viewport: { width: 1440, height: 900 },
    });
    // Signed in through the API with the context's cookie jar, with the stored user the console expects; the HTTP
    // cache is empty, as on a first visit.
    const login = await context.request.post('/api/user/login', { data: { username: 'root', password: '123456' } });
    const user = (await login.json()).data;
    await context.addInitScript((stored) => localStorage.setItem('user', stored), JSON.stringify(user));
    const page = await context.newPage();
    const finished: Request[] = [];
    page.on('requestfinished', (request) => finished.push(request));
    await page.goto('/token');
    await page.locator('tr.ant-table-row, .ant-table-placeholder').first().waitFor();
    await page.waitForLoadState('networkidle');

    let transferred = 0;
    let scriptBytes = 0;
    let decodedScriptBytes = 0;
    const uncompressed: string[] = [];
    const wrongHeaders: string[] = [];
    const encodings = new Set<string>();
    for (const request of finished) {
      const response = await request.response();
      if (!response) continue;
      const sizes = await request.sizes();
      transferred += sizes.responseBodySize + sizes.responseHeadersSize;
      const path = new URL(request.url()).pathname;
      const headers = await response.allHeaders();
      const isScript = path.endsWith('.js');
      const body = await response.body();
      if (isScript) {
        scriptBytes += sizes.responseBodySize;
        decodedScriptBytes += body.length;
      }
      if (isScript || path.endsWith('.css') || request.resourceType() === 'document') {
        const encoded = ['br', 'gzip'].includes(headers['content-encoding'] ?? '');
        if (encoded) encodings.add(headers['content-encoding'] as string);
        if (!encoded && !incompressible(body)) uncompressed.push(path);
        const cacheControl = path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
        if (!/accept-encoding/i.test(headers.vary ?? '') || headers['cache-control'] !== cacheControl) {
          wrongHeaders.push(`${path}: vary ${headers.vary}, cache-control ${headers['cache-control']}`);
        }
      }
    }
    console.log(
      `first visit to /token: ${finished.length} requests, ${kib(transferred)} transferred; ` +
        `JS ${kib(scriptBytes)} on the wire (${kib(decodedScriptBytes)} decoded), encodings: ${[...encodings].join(', ') || 'none'}`,
    );
    // The page's code comes in a few shared chunks, not one per antd component (was 92 requests).
    expect(finished.length).toBeLessThanOrEqual(30);
    expect(uncompressed).toEqual([]);
    expect(wrongHeaders).toEqual([]);
    expect(scriptBytes).toBeLessThan(decodedScriptBytes / 2.5);
    await context.close();
  });
});
