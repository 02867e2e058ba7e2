import { z } from 'zod';

export const updateOptionBody = z.object({
  key: z.string().min(1).max(64),
  // one-api's console sends strings; numbers and booleans from scripts are accepted and stored as text.
  value: z.union([z.string(), z.number(), z.boolean()]).transform(String),
});

/**
 * One runtime option as GET /api/option/ lists it (secrets are never listed). ModelRatio and CompletionRatio
 * list '' while the admin stored none, with one-api's built-in table (what prices the models nothing else
 * does) in `built_in`, for reference: saving it back would re-price every model it names.
 */
export const optionEntry = z.object({ key: z.string(), value: z.string(), built_in: z.string().optional() });

/** POST /api/option/preview: option values to try, none saved. */
export const optionPreviewBody = z.object({
  options: z.array(updateOptionBody).min(1).max(50),
});

/** What a call pays on a price, in US$ per 1M tokens, the group ratio aside; null when refused (no price). */
export const callPrice = z.object({
  source: z.string(),
  input: z.number().nullable(),
  output: z.number().nullable(),
});

/** The models whose price would change if the options were saved: before → after. */
export const optionPreview = z.object({
  changes: z.array(
    z.object({
      model: z.string(),
      channel_type: z.number().nullable(),
      group: z.string(),
      before: callPrice,
      after: callPrice,
    }),
  ),
});
export type OptionPreview = z.infer<typeof optionPreview>;
