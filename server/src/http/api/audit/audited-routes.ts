import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../../db/tables.js';

/** What a recorded write touched: a type, an id, and how to read its row before and after the write. */
export interface AuditTarget {
  type: string;
  id: string;
  /** The row (or value) now; undefined when there is none (before a create, after a hard delete). */
  read?: (db: Db) => Promise<unknown>;
}

/** How one admin route is recorded. */
export interface AuditedRoute {
  /** `user.update`; a function when the body names the action (`user.manage.promote`). */
  action: string | ((request: FastifyRequest) => string);
  target: (request: FastifyRequest) => AuditTarget;
  /** The after side when there is no row to read: what the request asked, or what the answer said. */
  after?: (request: FastifyRequest, answer: unknown) => unknown;
  /** Record only when one of these fields changed (a channel test writes a status only when it disables). */
  onlyWhenChanged?: readonly string[];
}

// The raw input: the hook runs before the route validates it, so everything is read defensively.
const field = (source: unknown, name: string): unknown =>
  typeof source === 'object' && source !== null ? (source as Record<string, unknown>)[name] : undefined;
const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');
const idOf = (value: unknown) => {
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : 0;
};

const row = (table: 'users' | 'channels' | 'redemptions', id: number) => (db: Db) =>
  id > 0 ? db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst() : Promise.resolve(undefined);

const userById = (id: unknown): AuditTarget => ({
  type: 'user',
  id: text(idOf(id) || ''),
  read: row('users', idOf(id)),
});
const userByName = (name: unknown): AuditTarget => ({
  type: 'user',
  id: text(name),
  read: (db) => db.selectFrom('users').selectAll().where('username', '=', text(name)).executeTakeFirst(),
});
const byId = (type: 'channel' | 'redemption', table: 'channels' | 'redemptions', id: unknown): AuditTarget => ({
  type,
  id: text(idOf(id) || ''),
  read: row(table, idOf(id)),
});

const price = (source: unknown): AuditTarget => {
  const model = text(field(source, 'model'));
  const group = text(field(source, 'group'));
  return {
    type: 'price',
    id: group ? `${model}@${group}` : model,
    read: (db) =>
      sql<Record<string, unknown>>`select * from model_prices where model = ${model} and price_group = ${group}`
        .execute(db)
        .then((result) => result.rows[0]),
  };
};

/** The option as `{ name: value }`, so the secret mask reads the option's name (SMTPPassword, …). */
const option = (source: unknown): AuditTarget => {
  const key = text(field(source, 'key'));
  return {
    type: 'option',
    id: key,
    read: async (db) => {
      const found = await db.selectFrom('options').select('value').where('key', '=', key).executeTakeFirst();
      return found ? { [key]: found.value } : undefined;
    },
  };
};

const dataOf = (answer: unknown) => field(answer, 'data');
/** The body as sent, without the bulk a file import carries. */
const bodyWithout = (request: FastifyRequest, ...names: string[]) =>
  Object.fromEntries(Object.entries((request.body ?? {}) as object).filter(([name]) => !names.includes(name)));

/**
 * Every admin or root write under /api, by `METHOD /api/path` as Fastify spells the route. A route added
 * without an entry here is caught by audit.routes.test.ts, which lists the registered admin writes.
 */
export const auditedRoutes: Record<string, AuditedRoute> = {
  'POST /api/user/': { action: 'user.create', target: (r) => userByName(field(r.body, 'username')) },
  'PUT /api/user/': { action: 'user.update', target: (r) => userById(field(r.body, 'id')) },
  'POST /api/user/manage': {
    action: (r) => `user.manage.${text(field(r.body, 'action'))}`,
    target: (r) => userByName(field(r.body, 'username')),
  },
  'DELETE /api/user/:id': { action: 'user.delete', target: (r) => userById(field(r.params, 'id')) },
  'POST /api/topup': { action: 'user.topup', target: (r) => userById(field(r.body, 'user_id')) },

  'POST /api/channel/': {
    action: 'channel.create',
    target: (r) => ({ type: 'channel', id: text(field(r.body, 'name')) }),
    after: (r) => r.body,
  },
  'PUT /api/channel/': { action: 'channel.update', target: (r) => byId('channel', 'channels', field(r.body, 'id')) },
  'DELETE /api/channel/disabled': {
    action: 'channel.delete_disabled',
    target: () => ({ type: 'channel', id: '' }),
    after: (_r, answer) => ({ deleted: dataOf(answer) }),
  },
  'DELETE /api/channel/:id': {
    action: 'channel.delete',
    target: (r) => byId('channel', 'channels', field(r.params, 'id')),
  },
  'GET /api/channel/test/:id': {
    action: 'channel.test',
    target: (r) => byId('channel', 'channels', field(r.params, 'id')),
    onlyWhenChanged: ['status'],
  },

  'PUT /api/option': { action: 'option.update', target: (r) => option(r.body) },

  'PUT /api/price/': { action: 'price.set', target: (r) => price(r.body) },
  'DELETE /api/price/': { action: 'price.delete', target: (r) => price(r.query) },
  'POST /api/price/import': {
    action: 'price.import',
    target: () => ({ type: 'price', id: '' }),
    after: (r, answer) => ({ request: bodyWithout(r, 'data'), result: summary(dataOf(answer)) }),
  },

  'POST /api/redemption': {
    action: 'redemption.create',
    target: (r) => ({ type: 'redemption', id: text(field(r.body, 'name')) }),
    after: (r) => r.body,
  },
  'PUT /api/redemption': {
    action: 'redemption.update',
    target: (r) => byId('redemption', 'redemptions', field(r.body, 'id')),
  },
  'DELETE /api/redemption/:id': {
    action: 'redemption.delete',
    target: (r) => byId('redemption', 'redemptions', field(r.params, 'id')),
  },

  'DELETE /api/log': {
    action: 'log.delete',
    target: () => ({ type: 'log', id: '' }),
    after: (r, answer) => ({ request: r.query, result: dataOf(answer) }),
  },
};

/** An import's answer without its per-model lists: the counts. */
function summary(data: unknown): unknown {
  if (typeof data !== 'object' || data === null) return data;
  return Object.fromEntries(
    Object.entries(data).map(([name, value]) => [name, Array.isArray(value) ? { count: value.length } : value]),
  );
}
