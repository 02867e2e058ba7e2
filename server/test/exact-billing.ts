import { expect } from 'vitest';
import { anthropicMockKey } from './mock-upstreams/anthropic.js';
import { openAIResponsesMockKey } from './mock-upstreams/openai-responses.js';
import { balances, createChannel, setOption } from './relay-fixtures.js';
import { startTestServer, type TestServer } from './test-server.js';

/** The usage one upstream call reported. */
export interface ReportedUsage {
  prompt: number;
  completion: number;
}

/**
 * Runs `work` and checks that it was billed to the unit: one consume log per upstream call with the usage that
 * call reported, each priced `ceil(prompt + completion × completionRatio)` (model and group ratio 1), and the
 * user's quota, used quota and the token's used quota moved by exactly their sum. `reported` is the list the
 * mocks fill; only the calls added during `work` count.
 */
export async function expectBilledExactly<Result>(
  server: TestServer,
  account: { userId: number; tokenId: number },
  reported: ReportedUsage[],
  completionRatio: number,
  work: () => Promise<Result>,
): Promise<Result> {
  const before = await balances(server, account.userId, account.tokenId);
  const calls = reported.length;
  const lastLogId = await newestLogId(server, account.userId);
  const result = await work();
  const after = await balances(server, account.userId, account.tokenId);
  const logs = await server.context.logDatabase.db
    .selectFrom('logs')
    .select(['quota', 'prompt_tokens', 'completion_tokens'])
    .where('user_id', '=', account.userId)
    .where('type', '=', 2)
    .where('id', '>', lastLogId)
    .execute();
  const made = reported.slice(calls);
  expect(made.length, 'upstream calls made').toBeGreaterThan(0);
  const pairs = (list: ReportedUsage[]) => list.map(({ prompt, completion }) => `${prompt}/${completion}`).sort();
  expect(pairs(logs.map((log) => ({ prompt: log.prompt_tokens, completion: log.completion_tokens })))).toEqual(
    pairs(made),
  );
  const price = made.reduce((sum, { prompt, completion }) => sum + Math.ceil(prompt + completion * completionRatio), 0);
  expect(logs.reduce((sum, log) => sum + Number(log.quota), 0)).toBe(price);
  expect(before.userQuota - after.userQuota).toBe(price);
  expect(after.userUsed - before.userUsed).toBe(price);
  expect(after.tokenUsed - before.tokenUsed).toBe(price);
  return result;
}

async function newestLogId(server: TestServer, userId: number): Promise<number> {
  const row = await server.context.logDatabase.db
    .selectFrom('logs')
    .select((expression) => expression.fn.max('id').as('id'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/**
 * A started server where `model` costs ratio 1 with the given completion ratio, served natively by an OpenAI
 * channel (Responses, group `openai`) and converted by a Claude channel (group `claude`): the two roads a
 * Responses client takes, priced so a call's charge follows from its reported usage.
 */
export async function startResponsesGateway(
  model: string,
  completionRatio: number,
  upstreams: { openaiUrl: string; claudeUrl: string },
): Promise<TestServer> {
  const server = await startTestServer();
  await setOption(server, 'ModelRatio', JSON.stringify({ [model]: 1 }));
  await setOption(server, 'CompletionRatio', JSON.stringify({ [model]: completionRatio }));
  await createChannel(server, {
    type: 1,
    group: 'openai',
    key: openAIResponsesMockKey,
    base_url: upstreams.openaiUrl,
    models: model,
  });
  await createChannel(server, {
    type: 14,
    group: 'claude',
    key: anthropicMockKey,
    base_url: upstreams.claudeUrl,
    models: model,
  });
  return server;
}
