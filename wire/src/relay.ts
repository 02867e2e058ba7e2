import { z } from 'zod';

/**
 * The OpenAI-shaped request bodies of /v1. Only the fields the gateway reads are checked; everything else
 * passes through to the upstream.
 */

/** one-api's limit on max_tokens: [0, 2^30). */
const maxTokens = z
  .number({ error: 'max_tokens is invalid' })
  .int({ error: 'max_tokens is invalid' })
  .min(0, { error: 'max_tokens is invalid' })
  .max(1_073_741_823, { error: 'max_tokens is invalid' })
  .optional();

const model = z
  .string({ error: 'model is required' })
  .min(1, { error: 'model is required' })
  .max(256, { error: 'model name is too long' });
const stream = z.boolean({ error: 'stream must be a boolean' }).optional();
const present = (name: string) =>
  z
    .unknown()
    .refine((value) => value !== undefined && value !== null && value !== '', { error: `field ${name} is required` });

export const chatBody = z.looseObject({
  model,
  messages: z
    .array(z.unknown(), { error: 'field messages is required' })
    .min(1, { error: 'field messages is required' }),
  stream,
  max_tokens: maxTokens,
});

export const completionBody = z.looseObject({ model, prompt: present('prompt'), stream, max_tokens: maxTokens });
export const embeddingBody = z.looseObject({ model, input: present('input') });
export const moderationBody = z.looseObject({ model, input: present('input') });

export const imageBody = z.looseObject({
  model,
  prompt: z.string({ error: 'prompt is required' }).min(1, { error: 'prompt is required' }),
  n: z.number({ error: 'invalid value of n' }).int({ error: 'invalid value of n' }).optional(),
  size: z.string().max(32).optional(),
  quality: z.string().max(32).optional(),
});

const utf8 = new TextEncoder();

export const speechBody = z.looseObject({
  model,
  input: z
    .string({ error: 'field input is required' })
    .min(1, { error: 'field input is required' })
    .refine((input) => utf8.encode(input).length <= 4096, { error: 'input is too long (over 4096 characters)' }),
  voice: z.string().max(64).optional(),
});

/** Multipart uploads (image edits and variations, transcriptions, translations): the fields the gateway reads. */
export const multipartFields = z.looseObject({
  model,
  n: z
    .string()
    .regex(/^\d{1,2}$/, { error: 'invalid value of n' })
    .optional(),
});

/** The OpenAI error shape every /v1 failure answers. */
export const openAIError = z.object({
  error: z.object({
    message: z.string(),
    type: z.string(),
    param: z.string().nullable().optional(),
    code: z.union([z.string(), z.number()]).nullable().optional(),
  }),
});
