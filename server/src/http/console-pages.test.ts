import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../../test/test-server.js';

const inlineScript = "document.title = localStorage.getItem('system_name') || document.title;";
const indexHtml = `<!doctype html><html><head><script>${inlineScript}</script>
<script type="module" crossorigin src="/assets/index-abc.js"></script></head><body><div id="root"></div></body></html>`;

/** Splits a Content-Security-Policy into its directives. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

describe.each([true, false])('console pages (console built: %s)', (built) => {
  let server: TestServer;
  let webDist: string;
  beforeAll(async () => {
    webDist = mkdtempSync(join(tmpdir(), 'modelgate-web-'));
    if (built) {
      writeFileSync(join(webDist, 'index.html'), indexHtml);
      mkdirSync(join(webDist, 'assets'));
      writeFileSync(join(webDist, 'assets', 'index-abc.js'), 'console.log("console")');
    }
    server = await startTestServer({ env: { WEB_DIST: webDist } });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  test.runIf(built)('console pages carry a CSP the console passes, and refuse framing and sniffing', async () => {
    for (const path of ['/', '/token', '/user/reset?email=a@b.c&token=x', '/no/such/page']) {
      const response = await fetch(server.url + path);
      expect(response.status, path).toBe(200);
      expect(await response.text(), path).toBe(indexHtml);
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('referrer-policy'), path).toBe('same-origin');
      const policy = directives(response.headers.get('content-security-policy') ?? '');
      expect(policy.get('frame-ancestors'), path).toEqual(["'none'"]);
      expect(policy.get('object-src'), path).toEqual(["'none'"]);
      expect(policy.get('default-src'), path).toEqual(["'self'"]);
      const scripts = policy.get('script-src') ?? [];
      // The inline script is allowed by its hash, nothing inline or evaluated otherwise.
      const hash = createHash('sha256').update(inlineScript).digest('base64');
      expect(scripts, path).toContain(`'sha256-${hash}'`);
      expect(scripts.join(' '), path).not.toMatch(/unsafe-inline|unsafe-eval/);
      expect(policy.get('style-src'), path).toContain("'unsafe-inline'");
    }
    const asset = await fetch(`${server.url}/assets/index-abc.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
  });

  test('unknown POST, PUT and DELETE paths answer OpenAI’s 404 error object, never the console', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const withBody = method !== 'DELETE';
      const response = await fetch(`${server.url}/chat/completions`, {
        method,
        headers: withBody ? { 'content-type': 'application/json' } : {},
        body: withBody ? '{}' : undefined,
      });
      expect(response.status, method).toBe(404);
      expect(response.headers.get('content-type'), method).toMatch(/^application\/json/);
      expect(await response.json(), method).toEqual({
        error: {
          message: `Invalid URL (${method} /chat/completions)`,
          type: 'invalid_request_error',
          param: '',
          code: '',
        },
      });
    }
    const console = await fetch(`${server.url}/log`);
    if (built) expect(await console.text()).toBe(indexHtml);
    else expect(await console.text()).toContain('the console is not built');
  });
});
