import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../../test/test-server.js';

describe('console serving and unknown paths', () => {
  let server: TestServer;
  const webDist = mkdtempSync(join(tmpdir(), 'modelgate-web-'));
  beforeAll(async () => {
    mkdirSync(join(webDist, 'assets'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>console</title>');
    writeFileSync(join(webDist, 'assets', 'app-1234.js'), 'console.log(1)');
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
      expect(await response.text()).toContain('<title>console</title>');
    }
  });

  test('hashed assets are served with a long cache lifetime', async () => {
    const response = await fetch(`${server.url}/assets/app-1234.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toContain('max-age=604800');
    expect(await response.text()).toBe('console.log(1)');
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
