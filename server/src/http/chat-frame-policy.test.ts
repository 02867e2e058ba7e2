import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { chatFrameOrigin } from './static.js';

const frameSources = (policy: string | null) =>
  (policy ?? '')
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .find((words) => words[0] === 'frame-src')
    ?.slice(1);

// Issue 33 point 8: /chat frames the configured chat link; an intranet NextChat on http:// must not be blocked.
describe('the chat link may be framed', () => {
  test('only a plain http link adds its origin; https is allowed anyway, nothing else is framed', () => {
    expect(chatFrameOrigin('http://chat.intranet:3000/#/?settings={"key":"sk-x"}')).toBe('http://chat.intranet:3000');
    expect(chatFrameOrigin('https://chat.example.com/')).toBeNull();
    expect(chatFrameOrigin('javascript:alert(1)')).toBeNull();
    expect(chatFrameOrigin('not a url')).toBeNull();
    expect(chatFrameOrigin('')).toBeNull();
  });

  let server: TestServer;
  let webDist: string;
  beforeAll(async () => {
    webDist = mkdtempSync(join(tmpdir(), 'modelgate-web-'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
    server = await startTestServer({ env: { WEB_DIST: webDist } });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  test("the console page's frame-src follows the stored ChatLink", async () => {
    const root = await server.rootClient();
    const framed = async () => frameSources((await fetch(`${server.url}/chat`)).headers.get('content-security-policy'));
    expect(await framed()).toEqual(["'self'", 'https:']);
    expect((await root.put('/api/option/', { key: 'ChatLink', value: 'http://10.0.0.7:3000/' })).body.success).toBe(
      true,
    );
    expect(await framed()).toEqual(["'self'", 'https:', 'http://10.0.0.7:3000']);
    expect((await root.put('/api/option/', { key: 'ChatLink', value: 'https://chat.example.com' })).body.success).toBe(
      true,
    );
    expect(await framed()).toEqual(["'self'", 'https:']);
  });
});
