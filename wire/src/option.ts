import { z } from 'zod';

export const updateOptionBody = z.object({
  key: z.string().min(1).max(64),
  // one-api's console sends strings; numbers and booleans from scripts are accepted and stored as text.
  value: z.union([z.string(), z.number(), z.boolean()]).transform(String),
});

/** One runtime option as GET /api/option/ lists it (secrets are never listed). */
export const optionEntry = z.object({ key: z.string(), value: z.string() });
