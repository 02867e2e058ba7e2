import { z } from 'zod';

/** What the console polls while a background run (bulk test, balance refresh, log cleanup) goes on. */
export const runProgress = z.object({
  running: z.boolean(),
  scope: z.string(),
  done: z.number(),
  total: z.number(),
  started_at: z.number(),
  finished_at: z.number(),
});
export type RunProgress = z.infer<typeof runProgress>;
