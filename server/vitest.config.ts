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
    env: { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --conditions=source`.trim() },
  },
});
