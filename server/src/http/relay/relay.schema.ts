import type { z } from 'zod';
import { chatBody, completionBody, embeddingBody, imageBody, moderationBody, speechBody } from '@modelgate/wire';
import type { RelayMode } from '../../relay/adaptor.js';

export { multipartFields } from '@modelgate/wire';

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
