// `npm start`: builds what is not built yet (wire schemas, server, console), then runs the server in this process.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

/** Newest modification time of a file, or of anything under a folder (0 when it does not exist). */
function newest(folder) {
  if (!existsSync(folder)) return 0;
  if (!statSync(folder).isDirectory()) return statSync(folder).mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(folder, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

function buildIfStale(workspace, output, sources) {
  const built = existsSync(output) ? statSync(output).mtimeMs : 0;
  if (built > Math.max(...sources.map(newest))) return;
  console.log(`building ${workspace} ...`);
  execSync(`npm run build -w ${workspace}`, { cwd: root, stdio: 'inherit' });
}

// The server's build imports @modelgate/wire as built JavaScript (wire/dist), so the wire package goes first.
buildIfStale('wire', join(root, 'wire/dist/index.js'), [join(root, 'wire/src')]);
buildIfStale('server', join(root, 'server/dist/main.js'), [join(root, 'server/src')]);
if (existsSync(join(root, 'web/package.json'))) {
  buildIfStale('web', join(root, 'web/dist/index.html'), [join(root, 'web/src'), join(root, 'web/index.html')]);
}
await import(join(root, 'server/dist/main.js'));
