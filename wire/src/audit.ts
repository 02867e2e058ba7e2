import { z } from 'zod';
import { optionalIntegerText, pageNumber, timestampText } from './fields.js';
import type { Operation } from './operation.js';

/** The audit trail's filters (issue 32, point 3): the actor by name or id, an action or its family (`user`). */
export const auditFilterQuery = z.object({
  actor: z.string().trim().max(64, 'too long').optional(),
  action: z
    .string()
    .trim()
    .regex(/^[a-z_.]*$/, 'an action such as user.update, or its family such as user')
    .max(64, 'too long')
    .optional(),
  target_type: z.string().trim().max(32, 'too long').optional(),
  start_timestamp: timestampText,
  end_timestamp: timestampText,
});

export const auditListQuery = auditFilterQuery.extend({
  p: pageNumber,
  page_size: optionalIntegerText.pipe(z.number().int().min(1).max(100).optional()),
});

/** One admin write: who, from where, when, what, and the target before → after with secrets masked. */
export const auditEntry = z.object({
  id: z.number(),
  seq: z.number(),
  created_at: z.number(),
  actor_id: z.number(),
  actor_name: z.string(),
  actor_role: z.number(),
  ip: z.string(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  prev_hash: z.string(),
  hash: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditPage = z.object({ items: z.array(auditEntry), total: z.number() });

export const auditChainCheck = z.object({
  ok: z.boolean(),
  checked: z.number(),
  first_bad_id: z.number().nullable(),
});

export const auditOperations: Operation[] = [
  {
    method: 'GET',
    path: '/api/audit/',
    summary: 'The audit trail of admin writes, newest first, with a total count',
    access: 'admin',
    query: auditListQuery,
    answer: auditPage,
  },
  {
    method: 'GET',
    path: '/api/audit/export.csv',
    summary: 'The audit trail as CSV (UTF-8 with a byte order mark), same filters',
    access: 'admin',
    query: auditFilterQuery,
    raw: true,
    mediaType: 'text/csv',
  },
  {
    method: 'GET',
    path: '/api/audit/verify',
    summary: 'Walks the hash chain: the first entry whose hash or link is wrong, or a missing tail',
    access: 'admin',
    answer: auditChainCheck,
  },
];
