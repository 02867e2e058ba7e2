import { z } from 'zod';
import type { RelayMode } from '../../relay/adaptor.js';

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

/** Only the fields the gateway reads are checked; everything else passes through to the upstream. */
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

export const speechBody = z.looseObject({
  model,
  input: z
    .string({ error: 'field input is required' })
    .min(1, { error: 'field input is required' })
    .refine((input) => Buffer.byteLength(input) <= 4096, { error: 'input is too long (over 4096 characters)' }),
  voice: z.string().max(64).optional(),
});

/** Multipart uploads: the fields the gateway reads. */
export const multipartFields = z.looseObject({
  model,
  n: z
    .string()
    .regex(/^\d{1,2}$/, { error: 'invalid value of n' })
    .optional(),
});

/** The JSON schema of each JSON mode. */
export const jsonSchemas: Partial<Record<RelayMode, z.ZodType<Record<string, unknown>>>> = {
  chat: chatBody,
  completions: completionBody,
  embeddings: embeddingBody,
  moderations: moderationBody,
  images: imageBody,
  'audio-speech': speechBody,
};

/** Defaults one-api fills in before validation (model of moderations, images, audio). */
export const defaultModels: Partial<Record<RelayMode, string>> = {
  moderations: 'text-moderation-latest',
  images: 'dall-e-2',
  'audio-transcription': 'whisper-1',
  'audio-translation': 'whisper-1',
};
