import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// The wire package is read from its TypeScript source (its `source` export condition), so tests need no build
// of it; so are the servers the tests start as child processes (node --import tsx), through NODE_OPTIONS.
const conditions = ['source', ...defaultServerConditions];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
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
