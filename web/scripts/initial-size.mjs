// Measures the JavaScript and CSS that index.html loads before any route chunk, gzipped at level 9,
// and prints a Markdown table (used for BUILD-SIZE.md).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url).pathname;
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const initial = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]);
const measure = (files) =>
  files.reduce(
    (sum, file) => {
      const bytes = readFileSync(join(dist, file));
      return { raw: sum.raw + bytes.length, gzip: sum.gzip + gzipSync(bytes, { level: 9 }).length };
    },
    { raw: 0, gzip: 0 },
  );
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const js = measure(initial.filter((file) => file.endsWith('.js')));
const css = measure(initial.filter((file) => file.endsWith('.css')));
const all = readdirSync(join(dist, 'assets')).filter((file) => file.endsWith('.js'));
const total = measure(all.map((file) => `assets/${file}`));
console.log('| What | Files | Raw | Gzipped |');
console.log('|---|---|---|---|');
console.log(
  `| Initial JS (entry + preloaded chunks) | ${initial.filter((f) => f.endsWith('.js')).length} | ${kib(js.raw)} | ${kib(js.gzip)} |`,
);
console.log(
  `| Initial CSS | ${initial.filter((f) => f.endsWith('.css')).length} | ${kib(css.raw)} | ${kib(css.gzip)} |`,
);
console.log(`| All JS chunks (every route) | ${all.length} | ${kib(total.raw)} | ${kib(total.gzip)} |`);
