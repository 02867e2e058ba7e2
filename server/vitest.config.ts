import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The wire package is read from its TypeScript source, so tests need no build of it: here by an alias (export
// conditions would also switch other packages to their bundler builds, e.g. the AWS SDK's extensionless
// dist-es), and in the servers the tests start as child processes (node --import tsx) by its `source` export
// condition, through NODE_OPTIONS.
export default defineConfig({
  resolve: { alias: { '@modelgate/wire': fileURLToPath(new URL('../wire/src/index.ts', import.meta.url)) } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    // Each worker keeps its module graph from one file to the next: isolated, the suite spent 360 of its 940 s
    // loading the app again for each of its 175 files (677 s without, the same 2,244 tests passing). A test file
    // starts its own servers, databases and upstreams; one that changes a module's state must put it back.
    isolate: false,
    env: { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --conditions=source`.trim() },
  },
});
