import { z } from 'zod';

/** `{ success, message, data }`: what every /api handler answers (`success: false` carries only a message). */
export const envelope = <T extends z.ZodType>(data: T) => z.object({ success: z.boolean(), message: z.string(), data });

export interface Envelope<T> {
  success: boolean;
  message: string;
  data: T;
}

/** The answer of a route that only reports success: `data` is null. */
export const emptyAnswer = envelope(z.null());
