// The floor for any gateway on this machine: one more hop and nothing else. A bare Node server forwards each
// POST to the mock through an undici Pool and pipes the answer back (streams as they come). No auth, routing
// or billing: the gap between it and a gateway is the gateway's own logic.
import { createServer } from 'node:http';
import { Pool } from 'undici';

const [port, upstream] = [Number(process.argv[2]), process.argv[3]!];
const pool = new Pool(upstream, { connections: 256 });

const server = createServer((request, response) => {
  const parts: Buffer[] = [];
  request.on('data', (part: Buffer) => parts.push(part));
  request.on('end', async () => {
    try {
      const answer = await pool.request({
        path: request.url ?? '/',
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: request.headers.authorization ?? '' },
        body: Buffer.concat(parts),
      });
      response.writeHead(answer.statusCode, { 'content-type': String(answer.headers['content-type'] ?? '') });
      for await (const chunk of answer.body) response.write(chunk);
      response.end();
    } catch {
      response.destroy();
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1', () => process.stdout.write(`${port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
