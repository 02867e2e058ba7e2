import type { z } from 'zod';

/**
 * Who may call a route: anyone; a signed-in user of at least a role (session cookie, or the access token
 * of GET /api/user/token in Authorization); or an API key (`Authorization: Bearer sk-…`; the Anthropic
 * front also reads `x-api-key`).
 */
export type Access = 'public' | 'user' | 'admin' | 'root' | 'api-key';

/** One route of /api or /v1 as the OpenAPI document describes it. */
export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
  /** Fastify's spelling: `/api/token/:id`, `/v1/oneapi/proxy/:channelId/*`. */
  path: string;
  summary: string;
  access: Access;
  params?: z.ZodObject;
  query?: z.ZodType;
  /** A JSON body. */
  body?: z.ZodType;
  /** A multipart/form-data body: the fields the gateway reads. */
  form?: z.ZodType;
  /**
   * The success answer: for /api, `data` of the `{ success, message, data }` envelope unless `raw`; for
   * /v1, the whole body. Absent: an envelope with `data: null` (/api) or an answer passed through (/v1).
   */
  answer?: z.ZodType;
  /** The answer is not enveloped (one-api's shapes of a few /api routes). */
  raw?: boolean;
  /** The answer's media type when it is not JSON. */
  mediaType?: string;
}
