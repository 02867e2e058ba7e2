import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.e2e.test.ts'],
    // One real server and one Chromium per file; files run one after another (the machine has 2 cores).
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    globalSetup: ['./support/global-setup.ts'],
  },
});
