import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { join } from 'node:path';

/**
 * Development aid, off by default (E2E_SPA_FALLBACK=1): answers console routes with index.html and forwards
 * everything else to the real server. It exists only to keep working on the suite while the server's own SPA
 * fallback is broken; the suite's verdict always comes from runs without it.
 */
export async function startSpaFallbackProxy(target: string, consoleRoot: string): Promise<{ url: string; close(): Promise<void> }> {
  const index = () => readFileSync(join(consoleRoot, 'index.html'));
  const server: Server = createServer((incoming, outgoing) => {
    const path = (incoming.url ?? '/').split('?')[0] ?? '/';
    const isConsoleRoute =
      incoming.method === 'GET' && !path.startsWith('/api/') && !path.startsWith('/v1') && !/\.[a-z0-9]+$/i.test(path);
    if (isConsoleRoute) {
      outgoing.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
      outgoing.end(index());
      return;
    }
    const forward = httpRequest(target + (incoming.url ?? '/'), { method: incoming.method, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    forward.on('error', () => outgoing.destroy());
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
