import type { Db } from '../../db/tables.js';
import { deleteInSlices, type SliceOptions } from '../../db/sliced-delete.js';
import { maxInputItemsPerPage, responseRetentionSeconds } from './response.constants.js';
import { previousResponseNotFound } from './response.errors.js';

/** A JSON object as stored: a Responses input or output item, usage, settings. */
export type JsonObject = Record<string, unknown>;

/** A stored response as the Responses front reads it back. */
export interface StoredResponse {
  id: string;
  userId: number;
  tokenId: number;
  model: string;
  status: string;
  createdAt: number;
  expiresAt: number;
  /** The whole conversation the response answered: the earlier responses' items, then its own input. */
  inputItems: JsonObject[];
  outputItems: JsonObject[];
  usage: JsonObject | null;
  /** What the response object echoes of its request (instructions, tools, text …). */
  settings: JsonObject;
}

export type NewStoredResponse = Omit<StoredResponse, 'expiresAt'>;

function parsed<T>(text: string | null, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

const rowOf = (response: NewStoredResponse) => ({
  id: response.id,
  user_id: response.userId,
  token_id: response.tokenId,
  model: response.model,
  status: response.status,
  created_at: response.createdAt,
  expires_at: response.createdAt + responseRetentionSeconds,
  input_items: JSON.stringify(response.inputItems),
  output_items: JSON.stringify(response.outputItems),
  usage: JSON.stringify(response.usage),
  settings: JSON.stringify(response.settings),
});
type ResponseRow = ReturnType<typeof rowOf>;

/** Rows per statement: 11 values each, far under every engine's limit on bound parameters. */
const rowsPerInsert = 100;

/** The saves asked for during one turn of the event loop, written together at its end. */
interface PendingSaves {
  rows: ResponseRow[];
  settle: { resolve: () => void; reject: (error: unknown) => void }[];
}
const pendingOf = new WeakMap<Db, PendingSaves>();

async function insertRows(db: Db, pending: PendingSaves): Promise<void> {
  for (let start = 0; start < pending.rows.length; start += rowsPerInsert) {
    const rows = pending.rows.slice(start, start + rowsPerInsert);
    const settle = pending.settle.slice(start, start + rowsPerInsert);
    try {
      await db.insertInto('responses').values(rows).execute();
      for (const { resolve } of settle) resolve();
    } catch {
      // One bad row must not cost the others theirs: each again on its own, its own error to its caller.
      for (const [index, row] of rows.entries())
        await db.insertInto('responses').values(row).execute().then(settle[index]!.resolve, settle[index]!.reject);
    }
  }
}

/**
 * Saves a response the client let store (`store` not false); it expires after the retention period. The saves
 * of one event-loop turn go in one insert: each was a statement (on SQLite a commit) of its own, the largest
 * part of a Responses call's work on the gateway (issue 28). Settles once its row is written.
 */
export function saveResponse(db: Db, response: NewStoredResponse): Promise<void> {
  let row: ResponseRow;
  try {
    row = rowOf(response);
  } catch (error) {
    return Promise.reject(error as Error);
  }
  let pending = pendingOf.get(db);
  if (!pending) {
    const batch: PendingSaves = { rows: [], settle: [] };
    pendingOf.set(db, (pending = batch));
    setImmediate(() => {
      pendingOf.delete(db);
      void insertRows(db, batch);
    });
  }
  return new Promise<void>((resolve, reject) => {
    pending.rows.push(row);
    pending.settle.push({ resolve, reject });
  });
}

/** The response with this id if this user stored it and it has not expired. */
export async function findResponseOfUser(
  db: Db,
  userId: number,
  id: string,
  now: number,
): Promise<StoredResponse | undefined> {
  const row = await db
    .selectFrom('responses')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    userId: row.user_id,
    tokenId: row.token_id,
    model: row.model,
    status: row.status,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    inputItems: parsed(row.input_items, []),
    outputItems: parsed(row.output_items, []),
    usage: parsed(row.usage, null),
    settings: parsed(row.settings, {}),
  };
}

/** Item ids as OpenAI and the gateway make them: only these are searched for (they go into a LIKE pattern). */
const itemIdPattern = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * The output item with this id among this user's stored responses (what an `item_reference` names). `hint` is
 * the response holding it when the caller knows (the front remembers its recent answers' items); otherwise
 * the user's unexpired responses are searched for it, newest first.
 */
export async function findOutputItemOfUser(
  db: Db,
  userId: number,
  itemId: string,
  now: number,
  hint?: string,
): Promise<JsonObject | undefined> {
  const named = (items: JsonObject[]) => items.find((item) => item.id === itemId);
  if (hint) {
    const item = named((await findResponseOfUser(db, userId, hint, now))?.outputItems ?? []);
    if (item) return item;
  }
  if (!itemIdPattern.test(itemId)) return undefined;
  const rows = await db
    .selectFrom('responses')
    .select('output_items')
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .where('output_items', 'like', `%"id":"${itemId}"%`)
    .orderBy('created_at', 'desc')
    .limit(5)
    .execute();
  for (const row of rows) {
    const item = named(parsed<JsonObject[]>(row.output_items, []));
    if (item) return item;
  }
  return undefined;
}

/** Deletes this user's response; whether there was one. */
export async function deleteResponseOfUser(db: Db, userId: number, id: string): Promise<boolean> {
  const result = await db.deleteFrom('responses').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export interface InputItemsPage {
  items: JsonObject[];
  hasMore: boolean;
}

/**
 * One page of a stored response's input items, as OpenAI's `input_items` lists them: newest first by
 * default (`order: 'desc'`), starting after the item with id `after`, at most `limit` (1 to 100).
 */
export function inputItemsPage(
  response: StoredResponse,
  options: { order?: 'asc' | 'desc'; after?: string; limit?: number } = {},
): InputItemsPage {
  const ordered = options.order === 'asc' ? response.inputItems : [...response.inputItems].reverse();
  const start = options.after === undefined ? 0 : ordered.findIndex((item) => item.id === options.after) + 1;
  const limit = Math.min(Math.max(options.limit ?? 20, 1), maxInputItemsPerPage);
  const items = ordered.slice(start, start + limit);
  return { items, hasMore: start + limit < ordered.length };
}

/**
 * A new request's conversation continuing `previous_response_id`: the earlier response's input items (its
 * whole conversation), its output items, then the new input. Instructions are not carried over, as OpenAI
 * does not carry them. Throws when this user has no such response stored.
 */
export async function conversationAfterOrThrow(
  db: Db,
  userId: number,
  previousResponseId: string,
  input: JsonObject[],
  now: number,
): Promise<JsonObject[]> {
  const previous = await findResponseOfUser(db, userId, previousResponseId, now);
  if (!previous) throw previousResponseNotFound(previousResponseId);
  return [...previous.inputItems, ...previous.outputItems, ...input];
}

/**
 * Deletes the responses expired at `now` (for the cleanup job), in slices of expiry time with the relay served
 * between them (db/sliced-delete.ts; the rows hold whole conversations, so one statement over all of them could
 * hold SQLite's event loop or a table lock for long). How many went.
 */
export async function deleteExpiredResponses(db: Db, now: number, options: SliceOptions = {}): Promise<number> {
  const oldest = await db
    .selectFrom('responses')
    .select((expression) => expression.fn.min('expires_at').as('expiresAt'))
    .where('expires_at', '<=', now)
    .executeTakeFirst();
  if (oldest?.expiresAt === null || oldest?.expiresAt === undefined) return 0;
  return deleteInSlices(
    Number(oldest.expiresAt),
    now,
    async (from, to) => {
      const result = await db
        .deleteFrom('responses')
        .where('expires_at', '>=', from)
        .where('expires_at', '<=', to)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    // Slices are spans of expiry time: an hour wide at first, growing over the empty years before the oldest
    // row (a test, a restored database) in a few steps.
    { sliceWidth: 3600, maxSliceWidth: 365 * 86_400, ...options },
  );
}
