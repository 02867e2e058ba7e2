import OpenAI from 'openai';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../src/db/tables.js';
import type { FaultKind } from './fault-upstream.js';

/** How a ledger test calls the relay: a whole answer, a stream, an embedding, or a stream the client leaves. */
export type CallMode = 'plain' | 'stream' | 'embed' | 'abort';

export interface CallOutcome {
  status: number;
  requestId: string;
  /** The node died under the call: it must not be charged. */
  severed: boolean;
}

const requestIdOf = (headers: unknown): string => {
  if (headers instanceof Headers) return headers.get('x-oneapi-request-id') ?? '';
  const value = (headers as Record<string, string> | undefined)?.['x-oneapi-request-id'];
  return value ?? '';
};

/**
 * One call to the fault upstream through the official SDK (`kind` picks its fault, `maxTokens` caps it);
 * a connection lost mid-call counts as severed.
 */
export async function callOnce(
  url: string,
  key: string,
  mode: CallMode,
  kind: FaultKind,
  maxTokens?: number,
): Promise<CallOutcome> {
  const client = new OpenAI({ apiKey: `sk-${key}`, baseURL: `${url}/v1`, maxRetries: 0, timeout: 30_000 });
  const messages = [{ role: 'user' as const, content: `fault:${kind}` }];
  const cap = maxTokens ? { max_tokens: maxTokens } : {};
  let requestId = '';
  try {
    if (mode === 'embed') {
      const { response } = await client.embeddings
        .create({ model: 'text-embedding-3-small', input: `fault:${kind}` })
        .withResponse();
      return { status: response.status, requestId: requestIdOf(response.headers), severed: false };
    }
    if (mode === 'plain') {
      const { response } = await client.chat.completions
        .create({ model: 'gpt-3.5-turbo', messages, ...cap })
        .withResponse();
      return { status: response.status, requestId: requestIdOf(response.headers), severed: false };
    }
    const { data: stream, response } = await client.chat.completions
      .create({ model: 'gpt-3.5-turbo', messages, stream: true, ...cap })
      .withResponse();
    requestId = requestIdOf(response.headers);
    let chunks = 0;
    try {
      for await (const chunk of stream) {
        void chunk;
        chunks += 1;
        if (mode === 'abort' && chunks === 2) {
          stream.controller.abort();
          break;
        }
      }
    } catch (error) {
      // The gateway's error event after a cut upstream: an answer, charged for what came.
      if (!(error instanceof OpenAI.APIError) || error instanceof OpenAI.APIConnectionError) throw error;
    }
    return { status: 200, requestId, severed: false };
  } catch (error) {
    if (error instanceof OpenAI.APIError && !(error instanceof OpenAI.APIConnectionError))
      return { status: error.status ?? 0, requestId: requestIdOf(error.headers), severed: false };
    // The node went away (kill -9) before or during its answer.
    return { status: requestId ? 200 : 0, requestId, severed: true };
  }
}

/** Every answered call has exactly one consume log, no refused or severed one has any. Returns what differs. */
/** The consume logs of each request id (absent when none), read 500 ids at a time. */
export async function consumeLogCounts(logDb: Kysely<Database>, ids: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (let start = 0; start < ids.length; start += 500) {
    const rows = await logDb
      .selectFrom('logs')
      .select(['request_id', sql<number>`count(*)`.as('count')])
      .where('type', '=', 2)
      .where('request_id', 'in', ids.slice(start, start + 500))
      .groupBy('request_id')
      .execute();
    for (const row of rows) counts.set(row.request_id, Number(row.count));
  }
  return counts;
}

export async function logsPerRequest(logDb: Kysely<Database>, outcomes: CallOutcome[]): Promise<string[]> {
  const ids = outcomes.map((outcome) => outcome.requestId).filter(Boolean);
  const counts = await consumeLogCounts(logDb, ids);
  const problems: string[] = [];
  for (const outcome of outcomes) {
    const logs = outcome.requestId ? (counts.get(outcome.requestId) ?? 0) : 0;
    const expected = outcome.status === 200 && !outcome.severed ? 1 : 0;
    if (logs !== expected)
      problems.push(`${outcome.requestId || '(no id)'} status ${outcome.status}: ${logs} logs, expected ${expected}`);
  }
  return problems;
}

/** Open reservations in the whole database (calls in flight, or left by a dead node until given back). */
export async function openReservations(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('reservations')
    .select(sql<number>`count(*)`.as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
