import type { z } from 'zod';
import { invalidParameter } from '../lib/errors.js';

/** Parses input with a schema at the edge; the first problem becomes a clear invalid-parameter message. */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  throw invalidParameter(`${where}${issue?.message ?? 'invalid input'}`);
}
