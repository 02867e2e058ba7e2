import type { FastifyRequest } from 'fastify';
import { auditFilterQuery, auditListQuery, type AuditEntry } from '@modelgate/wire';
import { appendAuditEntry, verifyAuditChain } from '../../../domain/audit/audit.chain.js';
import { maskPair } from '../../../domain/audit/audit.mask.js';
import { auditEntriesInBatches, listAuditEntries, type AuditFilters } from '../../../domain/audit/audit.repository.js';
import type { AuditLogRow } from '../../../domain/audit/audit.table.js';
import { csvText } from '../../../domain/log/log-export.js';
import { Role } from '../../../domain/user/user.constants.js';
import { ok } from '../../reply.js';
import { validate } from '../../validate.js';
import type { Db } from '../../../db/tables.js';
import type { RouteModule } from '../route-kit.js';
import { auditedRoutes, type AuditedRoute, type AuditTarget } from './audited-routes.js';

/** A recorded route's target and its row as it was before the handler ran. */
interface Pending {
  route: AuditedRoute;
  target: AuditTarget;
  before: unknown;
}

const parse = (text: string | null): unknown => (text === null ? null : (JSON.parse(text) as unknown));

function presentEntry(row: AuditLogRow): AuditEntry {
  const { before_json, after_json, ...rest } = row;
  return {
    ...rest,
    seq: Number(row.seq),
    created_at: Number(row.created_at),
    before: parse(before_json),
    after: parse(after_json),
  };
}

const toFilters = (query: {
  actor?: string;
  action?: string;
  target_type?: string;
  start_timestamp?: number;
  end_timestamp?: number;
}): AuditFilters => ({
  actor: query.actor || undefined,
  action: query.action || undefined,
  targetType: query.target_type || undefined,
  startTimestamp: query.start_timestamp,
  endTimestamp: query.end_timestamp,
});

const csvHeadings = [
  'id',
  'seq',
  'time',
  'actor_id',
  'actor',
  'role',
  'ip',
  'action',
  'target_type',
  'target_id',
  'before',
  'after',
  'hash',
];

function csvLine(row: AuditLogRow): string {
  const time = new Date(Number(row.created_at) * 1000).toISOString();
  const cells = [
    String(row.id),
    String(row.seq),
    time,
    String(row.actor_id),
    csvText(row.actor_name),
    String(row.actor_role),
    csvText(row.ip),
    csvText(row.action),
    csvText(row.target_type),
    csvText(row.target_id),
    csvText(row.before_json ?? ''),
    csvText(row.after_json ?? ''),
    row.hash,
  ];
  return `${cells.join(',')}\r\n`;
}

/**
 * A target's row, or undefined when it cannot be read: the hook reads the raw input before the route checks it
 * (PostgreSQL refuses a name holding NUL outright), and a failed read must not turn the route's own answer into
 * a 500.
 */
async function readTarget(target: AuditTarget, database: Db, request: FastifyRequest): Promise<unknown> {
  try {
    return await target.read?.(database);
  } catch (error) {
    request.log.warn({ err: error, route: request.routeOptions.url }, 'audit: the target could not be read');
    return undefined;
  }
}

/**
 * The audit trail (issue 32, point 3). Recording: every route listed in audited-routes.ts has its target read
 * before the handler and again once it answered with success, and an admin's or root's successful write is
 * appended to the hash chain before the answer leaves, secrets masked. Reading: admins and root, since each of
 * them is audited and the entries hold no secret; nothing edits or deletes an entry.
 */
export const auditRoutes: RouteModule = (app, { context, requireAdmin }) => {
  const db = () => context.database.db;
  const pending = new WeakMap<FastifyRequest, Pending>();

  // Runs before the route's own guard; a refused request just never reaches onSend's recording.
  app.addHook('preHandler', async (request) => {
    const route = auditedRoutes[`${request.method} ${request.routeOptions.url}`];
    if (!route) return;
    const target = route.target(request);
    pending.set(request, { route, target, before: await readTarget(target, db(), request) });
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const entry = pending.get(request);
    const actor = request.user;
    // An answer sent as a stream (a large price import's) carries its value as `auditAnswer`.
    const streamed = (payload as { auditAnswer?: unknown } | null)?.auditAnswer;
    if (!entry || !actor || actor.role < Role.Admin || reply.statusCode >= 400) return payload;
    if (typeof payload !== 'string' && streamed === undefined) return payload;
    const { route, target, before } = entry;
    let answer: unknown = streamed;
    try {
      answer ??= JSON.parse(payload as string);
    } catch {
      return payload;
    }
    const succeeded = (answer as { success?: unknown }).success === true;
    if (!succeeded && !route.onlyWhenChanged) return payload;
    const after = route.after ? route.after(request, answer) : await readTarget(target, db(), request);
    if (route.onlyWhenChanged) {
      if (route.onlyWhenChanged.every((name) => field(before, name) === field(after, name))) return payload;
    }
    const sides = maskPair(before, after);
    try {
      await appendAuditEntry(db(), {
        actorId: actor.id,
        actorName: actor.username,
        actorRole: actor.role,
        ip: request.ip,
        action: typeof route.action === 'string' ? route.action : route.action(request),
        targetType: target.type,
        targetId: target.id || String(field(after, 'id') ?? ''),
        before: sides.before,
        after: sides.after,
      });
    } catch (error) {
      // The write itself is done; the answer says so, and the missing entry is logged loudly.
      request.log.error({ err: error, route: request.routeOptions.url }, 'audit entry not written');
    }
    return payload;
  });

  app.get('/audit/', { preHandler: requireAdmin }, async (request) => {
    const query = validate(auditListQuery, request.query);
    const { items, total } = await listAuditEntries(db(), toFilters(query), query.p, query.page_size ?? 20);
    return ok({ items: items.map(presentEntry), total });
  });

  app.get('/audit/export.csv', { preHandler: requireAdmin }, async (request, reply) => {
    const filters = toFilters(validate(auditFilterQuery, request.query));
    // A UTF-8 byte order mark first: without it Excel reads the file as the local code page.
    let body = `\uFEFF${csvHeadings.join(',')}\r\n`;
    for await (const rows of auditEntriesInBatches(db(), filters)) body += rows.map(csvLine).join('');
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="audit-${new Date().toISOString().slice(0, 10)}.csv"`)
      .header('cache-control', 'no-store')
      .send(body);
  });

  app.get('/audit/verify', { preHandler: requireAdmin }, async () => ok(await verifyAuditChain(db())));
};

const field = (row: unknown, name: string): unknown =>
  typeof row === 'object' && row !== null ? (row as Record<string, unknown>)[name] : undefined;
