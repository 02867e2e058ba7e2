import type { geminiEmbedContentBody, geminiGenerateContentBody } from '@modelgate/wire';
import type { z } from 'zod';

/** A generateContent request as the front reads it (camelCase, checked by the wire schema). */
export type GeminiFrontRequest = z.infer<typeof geminiGenerateContentBody>;
export type GeminiFrontContent = GeminiFrontRequest['contents'][number];
export type GeminiFrontPart = GeminiFrontContent['parts'][number];
export type GeminiEmbedContentRequest = z.infer<typeof geminiEmbedContentBody>;
