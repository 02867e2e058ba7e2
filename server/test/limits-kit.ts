import type { Kysely } from 'kysely';
import OpenAI from 'openai';
import { expect, onTestFinished } from 'vitest';
import type { FaultKind } from './fault-upstream.js';
import type { TestServer } from './test-server.js';
import type { TestUser } from './test-users.js';

/** What limits.test.ts and limits.multinode.test.ts share: clock, calls, tokens and what a call held. */

const MachineDate = globalThis.Date;

/** Runs this process's wall clock (every in-process node's) from `isoTime` on; timers and databases keep theirs. */
export function moveClockTo(isoTime: string): void {
  const offsetMs = Date.parse(isoTime) - MachineDate.now();
  class MovedDate extends MachineDate {
    constructor(...args: ConstructorParameters<typeof Date> | []) {
      if (args.length === 0) super(MachineDate.now() + offsetMs);
      else super(...(args as ConstructorParameters<typeof Date>));
    }

    static override now() {
      return MachineDate.now() + offsetMs;
    }
  }
  globalThis.Date = MovedDate as DateConstructor;
  onTestFinished(() => void (globalThis.Date = MachineDate));
}

export interface CallOutcome {
  status: number;
  headers: Headers;
  error?: { type?: string; code?: string | null };
}

/** One chat call through the official SDK on `node`: its status, the headers it came back with, its error. */
export async function call(
  node: Pick<TestServer, 'url'>,
  key: string,
  kind: FaultKind = 'ok',
  options: { stream?: boolean; maxTokens?: number } = {},
): Promise<CallOutcome> {
  const client = new OpenAI({ apiKey: `sk-${key}`, baseURL: `${node.url}/v1`, maxRetries: 0, timeout: 30_000 });
  const request = {
    model: 'gpt-3.5-turbo',
    messages: [{ role: 'user' as const, content: `fault:${kind}` }],
    ...(options.maxTokens ? { max_tokens: options.maxTokens } : {}),
  };
  try {
    if (options.stream) {
      const { data, response } = await client.chat.completions.create({ ...request, stream: true }).withResponse();
      for await (const chunk of data) void chunk;
      return { status: response.status, headers: response.headers };
    }
    const { response } = await client.chat.completions.create(request).withResponse();
    return { status: response.status, headers: response.headers };
  } catch (error) {
    if (!(error instanceof OpenAI.APIError) || error instanceof OpenAI.APIConnectionError) throw error;
    const body = error.error as { type?: string; code?: string | null } | undefined;
    return { status: error.status ?? 0, headers: error.headers as Headers, error: body };
  }
}

/** How many outcomes had each status. */
export const statuses = (outcomes: { status: number }[]) => {
  const counts: Record<number, number> = {};
  for (const { status } of outcomes) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
};

let tokenCount = 0;

/** A new token of `owner`'s, unlimited in quota, with the given limits set through PUT /api/token/. */
export async function limitedToken(
  owner: TestUser,
  limits: Record<string, number | string> = {},
): Promise<{ id: number; key: string; name: string }> {
  const name = `limited-${++tokenCount}-${Date.now() % 100_000}`;
  const created = await owner.client.post('/api/token/', { name, unlimited_quota: true });
  expect(created.body.success).toBe(true);
  if (Object.keys(limits).length > 0) {
    const updated = await owner.client.put('/api/token/', { id: created.body.data.id, ...limits });
    expect(updated.body).toMatchObject({ success: true, data: limits });
  }
  return { id: created.body.data.id, key: created.body.data.key, name };
}

/** Each consume log of a token: what its call held (the receipt's first field), its charge, its output cap. */
export async function chargesOf(
  node: TestServer,
  tokenName: string,
): Promise<{ held: number; quota: number; outputCap: number | null }[]> {
  const rows = await node.context.logDatabase.db
    .selectFrom('logs')
    .select(['quota', 'other'])
    .where('token_name', '=', tokenName)
    .where('type', '=', 2)
    .orderBy('id')
    .execute();
  return rows.map((row) => {
    const packed = JSON.parse(row.other ?? '{}') as { r: [number, number | null] };
    return { held: packed.r[0], quota: Number(row.quota), outputCap: packed.r[1] };
  });
}

/** What `limit_budget_spend` holds for a budget's scope (`t:<token id>`, `u:<user id>`), all periods together. */
export async function writtenSpend(node: TestServer, scope: string): Promise<number> {
  const db = node.context.database.db as unknown as Kysely<{ limit_budget_spend: { scope: string; spent: number } }>;
  const rows = await db.selectFrom('limit_budget_spend').select('spent').where('scope', '=', scope).execute();
  return rows.reduce((sum, row) => sum + Number(row.spent), 0);
}
