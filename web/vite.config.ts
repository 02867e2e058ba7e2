/// <reference types="vitest/config" />
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const backend = 'http://127.0.0.1:3000';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
/** Text files worth compressing; images such as PNG are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|map)$/;

/**
 * Writes a .br (quality 11) and a .gz (level 9) file next to each text file of the build, kept only when smaller;
 * the server sends them to browsers that accept them (server/src/http/static.ts), so nothing is compressed per
 * request.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'modelgate:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true })).filter((file) => COMPRESSIBLE.test(file));
      await Promise.all(
        files.map(async (file) => {
          const path = join(outDir, file);
          const raw = await readFile(path);
          const [br, gz] = await Promise.all([
            brotli(raw, {
              params: {
                [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
                [zlibConstants.BROTLI_PARAM_SIZE_HINT]: raw.length,
              },
            }),
            gzipAsync(raw, { level: 9 }),
          ]);
          if (br.length < raw.length) await writeFile(`${path}.br`, br);
          if (gz.length < raw.length) await writeFile(`${path}.gz`, gz);
        }),
      );
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress()],
  base: '/',
  server: {
    proxy: {
      '/api': { target: backend, changeOrigin: true },
      '/v1': { target: backend, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      output: {
        // Few, large chunks: on the first load of a page the browser asks for the entry (with everything the shell
        // needs), the page's code and at most a handful of shared chunks, instead of ~30 entry chunks and ~50
        // page chunks queued six at a time on one HTTP/1.1 origin (issue 33 point 9).
        codeSplitting: {
          groups: [
            // Everything the entry imports statically, in the entry's one chunk. Dependencies are not followed:
            // the modules the tree-shaking below leaves out of the shell (rc-form's engine) stay out of it.
            { name: 'shell', tags: ['$initial'], priority: 30, includeDependenciesRecursively: false },
            // The shell's English texts (Chinese ones are in the entry): one request before the first render in English.
            { name: 'en-shell', test: /[\\/]i18n[\\/]locales[\\/]en[\\/](common|header|footer)\.ts$/, priority: 25 },
            // Markdown and the HTML sanitizer, with our components that use them: only the pages that show
            // admin-written content (home, about, the footer, the notice) need them; /log does not.
            {
              name: 'markdown',
              test: /node_modules[\\/](marked|dompurify)[\\/]|[\\/]src[\\/](lib[\\/](markdown|sanitize)\.ts|components[\\/]html-content[\\/])/,
              priority: 20,
              includeDependenciesRecursively: false,
            },
            // The libraries two or more pages share (antd's components, the query client): one chunk, cached
            // across pages. A library one page uses alone (the usage chart's recharts) stays with that page.
            { name: 'ui', test: /node_modules[\\/]/, priority: 10, minShareCount: 2 },
            // Our own code two or more pages share (api calls, hooks, list components).
            {
              name: 'app',
              test: (id) =>
                !id.includes('node_modules') && /[\\/]src[\\/](?!pages[\\/]|i18n[\\/]locales[\\/])/.test(id),
              priority: 5,
              minShareCount: 2,
            },
          ],
        },
      },
      treeshake: {
        // antd's menu and dropdown reach rc-form's index for two contexts; the package does not say it is free of
        // side effects, so its whole form engine (and the validator) would ride along in the initial JavaScript.
        moduleSideEffects: (id) =>
          /node_modules\/@rc-component\/(form|async-validator)\//.test(id) ? false : undefined,
      },
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./vitest.setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    testTimeout: 20000,
    // Vitest's default on a 2-core machine is one worker; most of a file's time is loading jsdom and antd, which
    // two workers overlap (the suite took 239 s with one worker and 152 s with two).
    maxWorkers: 2,
  },
});
