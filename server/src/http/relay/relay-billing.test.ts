import OpenAI from 'openai';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { batchUpdateJob } from '../../jobs/batch-update.job.js';
import { availableEngines } from '../../../test/engines.js';
import { MockOpenAIUpstream } from '../../../test/mock-openai-upstream.js';
import { balances, createChannel, createToken, createUser, setOption } from '../../../test/relay-fixtures.js';
import { startSmtpServer, type TestSmtpServer } from '../../../test/smtp-server.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';

// gpt-3.5-turbo: ratio 0.25, completion ratio 3 → (10 + 10 × 3) × 0.25 = 10 quota per call.
const perCall = 10;

async function chat(server: TestServer, key: string) {
  return fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'count me' }] }),
  });
}

describe.each(await availableEngines())('billing under concurrency on $label', (engine) => {
  let server: TestServer;
  let upstream: MockOpenAIUpstream;
  let channelId: number;
  beforeAll(async () => {
    server = await startTestServer({ engine });
    upstream = await MockOpenAIUpstream.start({ latencyMs: 100, usage: { prompt_tokens: 10, completion_tokens: 10 } });
    channelId = (await createChannel(server, { base_url: upstream.url, models: 'gpt-3.5-turbo' })).id;
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  test('50 concurrent calls on one limited token that cannot cover them all: exact balances, no overspend', async () => {
    const userId = await createUser(server, { username: 'concurrent', quota: 5000 });
    const token = await createToken(server, userId, { unlimited_quota: false, remain_quota: 300 });
    const responses = await Promise.all(Array.from({ length: 50 }, () => chat(server, token.key)));
    const statuses = responses.map((response) => response.status);
    const succeeded = statuses.filter((status) => status === 200).length;
    const refused = await Promise.all(
      responses.filter((response) => response.status !== 200).map((response) => response.json()),
    );
    expect(succeeded).toBeGreaterThan(0);
    // Each call costs 10, so 300 pays for 30. The first calls are held for one-api's estimate (~127); once
    // the model's typical output is known, for what they cost (decision 0014). Never more than the balance.
    expect(succeeded).toBeLessThanOrEqual(30);
    expect(refused.length).toBeGreaterThan(0);
    expect(succeeded + refused.length).toBe(50);
    // Refused at the reservation, or, for a call that arrives once the balance is spent, at the token check.
    for (const body of refused)
      expect(body.error.code).toMatch(/^(pre_consume_token_quota_failed|insufficient_user_quota|token_exhausted)$/);
    for (const response of responses.filter((r) => r.status === 200)) await response.text();
    const after = await balances(server, userId, token.id);
    expect(after).toMatchObject({
      tokenRemain: 300 - perCall * succeeded,
      tokenUsed: perCall * succeeded,
      userQuota: 5000 - perCall * succeeded,
      userUsed: perCall * succeeded,
      requestCount: succeeded,
      consumeLogs: succeeded,
    });
  });

  test('50 concurrent trusted calls lose no update', async () => {
    const userId = await createUser(server, { username: 'trusted50', quota: 10_000_000 });
    const token = await createToken(server, userId, { unlimited_quota: false, remain_quota: 1_000_000 });
    const channelBefore = (await balances(server, userId, token.id, channelId)).channelUsed;
    const responses = await Promise.all(Array.from({ length: 50 }, () => chat(server, token.key)));
    expect(responses.map((response) => response.status)).toEqual(Array(50).fill(200));
    await Promise.all(responses.map((response) => response.text()));
    expect(await balances(server, userId, token.id, channelId)).toMatchObject({
      tokenRemain: 1_000_000 - 50 * perCall,
      tokenUsed: 50 * perCall,
      userQuota: 10_000_000 - 50 * perCall,
      userUsed: 50 * perCall,
      requestCount: 50,
      channelUsed: channelBefore + 50 * perCall,
    });
  });
});

describe('batch update mode', () => {
  let server: TestServer;
  let upstream: MockOpenAIUpstream;
  beforeAll(async () => {
    server = await startTestServer({ env: { BATCH_UPDATE_ENABLED: 'true', BATCH_UPDATE_INTERVAL: '1' } });
    upstream = await MockOpenAIUpstream.start({ usage: { prompt_tokens: 10, completion_tokens: 10 } });
    await createChannel(server, { base_url: upstream.url, models: 'gpt-3.5-turbo' });
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  test('settlements accumulate in memory and are written by the job, reservations stay immediate', async () => {
    const userId = await createUser(server, { username: 'batched', quota: 5000 });
    const token = await createToken(server, userId, { unlimited_quota: false, remain_quota: 3000 });
    const client = new OpenAI({ apiKey: `sk-${token.key}`, baseURL: `${server.url}/v1`, maxRetries: 0 });
    // With max_tokens, each call holds its ceiling (78), not the whole token: a hold cut at the balance keeps
    // it all until the job writes the refund in this mode.
    for (let index = 0; index < 5; index++)
      await client.chat.completions.create({
        model: 'gpt-3.5-turbo',
        messages: [{ role: 'user', content: 'x' }],
        max_tokens: 100,
      });
    const pending = await balances(server, userId, token.id);
    expect(pending.requestCount).toBe(0);
    expect(pending.userQuota).toBeLessThan(5000);
    await batchUpdateJob.run(server.context, new AbortController().signal);
    expect(await balances(server, userId, token.id)).toMatchObject({
      tokenRemain: 3000 - 5 * perCall,
      tokenUsed: 5 * perCall,
      userQuota: 5000 - 5 * perCall,
      userUsed: 5 * perCall,
      requestCount: 5,
    });
    expect(batchUpdateJob.intervalSeconds(server.context)).toBe(1);
  });
});

describe('low-balance reminder', () => {
  let server: TestServer;
  let upstream: MockOpenAIUpstream;
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    server = await startTestServer();
    upstream = await MockOpenAIUpstream.start({ usage: { prompt_tokens: 10, completion_tokens: 10 } });
    await createChannel(server, { base_url: upstream.url, models: 'gpt-3.5-turbo' });
    for (const [key, value] of Object.entries({
      SMTPServer: smtp.host,
      SMTPPort: String(smtp.port),
      SMTPFrom: 'gate@example.com',
      ServerAddress: 'http://gate.test',
    })) {
      await setOption(server, key, value);
    }
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
    await smtp?.close();
  });

  test('a reservation that takes the balance below QuotaRemindThreshold mails the user once', async () => {
    const userId = await createUser(server, { username: 'lowbalance', quota: 1100 });
    await server.context.database.db
      .updateTable('users')
      .set({ email: 'low@example.com' })
      .where('id', '=', userId)
      .execute();
    const token = await createToken(server, userId);
    expect((await chat(server, token.key)).status).toBe(200);
    const mail = await smtp.waitForMail((received) => received.envelopeTo.includes('low@example.com'));
    expect(mail.subject).toBe('额度提醒');
    expect(mail.html).toContain('您的额度即将用尽');
    expect(mail.html).toContain('http://gate.test/topup');
  });
});

const postgres = (await availableEngines()).find((engine) => engine.name === 'postgres');

describe.runIf(postgres)('answer once the charge is journaled, commit after', () => {
  test('a call is answered while its charge waits for a row lock (its journal line is written); an /api read waits for the charge', async () => {
    const server = await startTestServer({ engine: postgres });
    const upstream = await MockOpenAIUpstream.start({ usage: { prompt_tokens: 10, completion_tokens: 10 } });
    const locker = new pg.Client({ connectionString: server.context.config.SQL_DSN });
    try {
      await createChannel(server, { base_url: upstream.url, models: 'gpt-3.5-turbo' });
      // Far above 100× the estimate, so nothing is reserved before the call: only the charge writes.
      const userId = await createUser(server, { username: 'answered-first', quota: 10_000_000 });
      const token = await createToken(server, userId);
      const root = await server.rootClient();
      await locker.connect();
      await locker.query('begin');
      await locker.query('select id from users where id = $1 for update', [userId]);

      const response = await chat(server, token.key);
      expect(response.status).toBe(200);
      await response.text();
      let readDone = false;
      const read = root.request('GET', `/api/user/${userId}`).then((result) => {
        readDone = true;
        return result;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(readDone).toBe(false);
      await locker.query('commit');
      expect((await read).body.data.quota).toBe(10_000_000 - perCall);
    } finally {
      await locker.end().catch(() => {});
      await server.close();
      await upstream.close();
    }
  });
});
