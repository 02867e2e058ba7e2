import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.e2e.test.ts'],
    // One real server and one Chromium per file; files run one after another (the machine has 2 cores).
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // A page shows its data a second or more after it loads when the machine is busy; expect.poll's 1 s default
    // failed on that alone.
    expect: { poll: { timeout: 5000 } },
    globalSetup: ['./support/global-setup.ts'],
  },
});
