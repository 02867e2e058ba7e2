import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { autoDisableChannel } from '../../../domain/channel/channel-status.service.js';
import { channelTestJob } from '../../../jobs/channel-test.job.js';
import { startJobs } from '../../../jobs/scheduler.js';
import type { ApiClient } from '../../../../test/api-client.js';
import {
  abilitiesOf,
  channelRow,
  createChannels,
  eventually,
  saveOptions,
  signInWithRole,
} from '../../../../test/channel-test-helpers.js';
import { availableEngines } from '../../../../test/engines.js';
import { MockOpenAIUpstream } from '../../../../test/mock-openai-upstream.js';
import { startSmtpServer, type TestSmtpServer } from '../../../../test/smtp-server.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';

const statusOf = async (server: TestServer, id: number) => Number((await channelRow(server, id))!.status);

describe.each(await availableEngines())('channel health on $label', (engine) => {
  let server: TestServer;
  let root: ApiClient;
  let healthy: MockOpenAIUpstream;
  let dead: MockOpenAIUpstream;
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    [server, healthy, dead, smtp] = await Promise.all([
      startTestServer({ engine }),
      MockOpenAIUpstream.start(),
      // A failed call's latency is recorded by bulk tests: 20 ms keeps it clear of a 0 ms local answer.
      MockOpenAIUpstream.start({
        latencyMs: 20,
        failure: {
          status: 401,
          error: {
            message: 'Incorrect API key provided: sk-dead.',
            type: 'invalid_request_error',
            code: 'invalid_api_key',
          },
        },
      }),
      startSmtpServer(),
    ]);
    root = await server.rootClient();
    await saveOptions(root, { SMTPServer: smtp.host, SMTPPort: smtp.port, SMTPFrom: 'gate@example.com' });
    await server.context.database.db
      .updateTable('users')
      .set({ email: 'root@example.com' })
      .where('username', '=', 'root')
      .execute();
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all([healthy?.close(), dead?.close(), smtp?.close()]);
  });
  beforeEach(async () => {
    await server.context.database.db.deleteFrom('abilities').execute();
    await server.context.database.db.deleteFrom('channels').execute();
    healthy.reset();
    smtp.mails.length = 0;
    await saveOptions(root, {
      AutomaticDisableChannelEnabled: true,
      AutomaticEnableChannelEnabled: true,
      ChannelDisableThreshold: 0,
    });
  });

  const channel = async (name: string, upstream: MockOpenAIUpstream, extra: Record<string, unknown> = {}) =>
    (
      await createChannels(server, root, {
        name,
        type: 1,
        key: `sk-${name}`,
        base_url: upstream.url,
        models: 'gpt-3.5-turbo',
        ...extra,
      })
    )[0]!;

  const finishBulkTest = () =>
    eventually(async () => {
      const progress = (await root.get('/api/channel/test/status')).body.data;
      return !progress.running && progress.started_at > 0 && progress;
    });

  const mailsAbout = (text: string) =>
    smtp.mails.filter((mail) => mail.subject === '渠道状态变更提醒' && mail.html.includes(text));

  test('a single test asks for the channel model through its mapping, records the time and a test log', async () => {
    const id = await channel('single', healthy, {
      models: 'gpt-4o-mini,gpt-3.5-turbo',
      model_mapping: '{"gpt-3.5-turbo":"gpt-35-upstream"}',
    });
    healthy.set({ latencyMs: 40 });
    const answer = await root.get(`/api/channel/test/${id}`);
    expect(answer.body).toMatchObject({
      success: true,
      message: 'Hello from the mock upstream',
      model: 'gpt-3.5-turbo',
    });
    expect(answer.body.time).toBeGreaterThanOrEqual(0.04);
    const sent = healthy.lastRequest!;
    expect(sent.url).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-single');
    expect(sent.json).toMatchObject({
      model: 'gpt-35-upstream',
      messages: [{ role: 'user', content: server.context.config.TEST_PROMPT }],
    });
    expect(sent.json.stream).toBeFalsy();

    const stored = (await channelRow(server, id))!;
    expect(Number(stored.response_time)).toBeGreaterThanOrEqual(40);
    expect(Math.abs(Number(stored.test_time) - Date.now() / 1000)).toBeLessThan(10);
    const log = await server.context.logDatabase.db
      .selectFrom('logs')
      .selectAll()
      .where('channel_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(log).toMatchObject({
      type: 5,
      content: '渠道 single 测试成功，响应：Hello from the mock upstream',
      model_name: 'gpt-3.5-turbo',
    });
    expect(Number(log.user_id)).toBe(0);

    healthy.set({});
    expect((await root.get(`/api/channel/test/${id}?model=gpt-4o-mini`)).body.model).toBe('gpt-4o-mini');
    expect(healthy.lastRequest!.json.model).toBe('gpt-4o-mini');
    // A model the channel does not list falls back to its first model (whole names, not substrings).
    expect((await root.get(`/api/channel/test/${id}?model=gpt-4o`)).body.model).toBe('gpt-4o-mini');
  });

  test('a failed single test reports the upstream error, stores 0 ms and never disables', async () => {
    const id = await channel('broken', dead);
    const answer = await root.get(`/api/channel/test/${id}`);
    expect(answer.body.success).toBe(false);
    expect(answer.body.message).toContain('http status code 401');
    expect(answer.body.message).toContain('Incorrect API key provided');
    expect(answer.body.model).toBe('gpt-3.5-turbo');
    const stored = (await channelRow(server, id))!;
    expect(Number(stored.response_time)).toBe(0);
    expect(Number(stored.status)).toBe(1);
    const log = await server.context.logDatabase.db
      .selectFrom('logs')
      .select('content')
      .where('channel_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(log.content).toMatch(/^渠道 broken 测试失败，错误：http status code 401/);
    expect(smtp.mails).toHaveLength(0);
  });

  test('health routes are for admins, and bad ids or scopes are refused', async () => {
    const id = await channel('guarded', healthy);
    const common = await signInWithRole(server, 1);
    for (const path of [
      `/api/channel/test/${id}`,
      '/api/channel/test',
      '/api/channel/test/status',
      `/api/channel/update_balance/${id}`,
      '/api/channel/update_balance',
      '/api/channel/update_balance/status',
    ]) {
      expect((await common.get(path)).body, path).toEqual({ success: false, message: '无权进行此操作，权限不足' });
    }
    expect(healthy.requests).toHaveLength(0);
    expect((await root.get('/api/channel/test/abc')).body.success).toBe(false);
    expect((await root.get('/api/channel/test/99999')).body).toEqual({ success: false, message: '渠道不存在' });
    expect((await root.get('/api/channel/test?scope=everything')).body.success).toBe(false);
    expect((await root.get(`/api/channel/test/${id}?model=${'m'.repeat(300)}`)).body.success).toBe(false);
  });

  test('a bulk test disables dead channels, re-enables recovered ones, leaves manual disables, and mails root once', async () => {
    const good = await channel('good', healthy);
    const broken = await channel('dead', dead);
    const recovered = await channel('recovered', healthy, { status: 3 });
    const manual = await channel('manual', healthy, { status: 2 });
    expect((await root.get('/api/channel/test?scope=all')).body).toMatchObject({ success: true });
    expect(await finishBulkTest()).toMatchObject({ scope: 'all', done: 4, total: 4 });

    expect([
      await statusOf(server, good),
      await statusOf(server, broken),
      await statusOf(server, recovered),
      await statusOf(server, manual),
    ]).toEqual([1, 3, 1, 2]);
    expect((await abilitiesOf(server, broken)).map((row) => row.enabled)).toEqual([false]);
    expect((await abilitiesOf(server, recovered)).map((row) => row.enabled)).toEqual([true]);
    expect(Number((await channelRow(server, broken))!.response_time)).toBeGreaterThanOrEqual(20);

    await smtp.waitForMail((mail) => mail.subject === '渠道测试完成');
    expect(mailsAbout('dead')).toHaveLength(1);
    expect(mailsAbout('dead')[0]!.html).toContain('已被禁用');
    expect(mailsAbout('dead')[0]!.to).toEqual(['root@example.com']);
    expect(mailsAbout('recovered')).toHaveLength(1);
    expect(mailsAbout('recovered')[0]!.html).toContain('已被重新启用');

    // Another run, and a burst of live-traffic failures, do not repeat the notice.
    expect((await root.get('/api/channel/test?scope=disabled')).body.success).toBe(true);
    expect(await finishBulkTest()).toMatchObject({ scope: 'disabled', done: 2, total: 2 });
    await Promise.all(Array.from({ length: 5 }, () => autoDisableChannel(server.context, broken, 'dead', 'HTTP 401')));
    await Promise.all(Array.from({ length: 5 }, () => autoDisableChannel(server.context, good, 'good', 'HTTP 401')));
    expect(await statusOf(server, broken)).toBe(3);
    expect(await statusOf(server, manual)).toBe(2);
    await smtp.waitForMail((mail) => mail.html.includes('good'));
    expect(mailsAbout('dead')).toHaveLength(1);
    expect(mailsAbout('good')).toHaveLength(1);
  });

  test('with a message pusher configured, notices go there first and fall back to mail when it refuses', async () => {
    const received: Record<string, unknown>[] = [];
    let accept = true;
    const pusher = createServer((request, response) => {
      const parts: Buffer[] = [];
      request.on('data', (part: Buffer) => parts.push(part));
      request.on('end', () => {
        received.push(JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>);
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ success: accept, message: accept ? '' : 'token invalid' }));
      });
    });
    await new Promise<void>((resolve) => pusher.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = pusher.address() as AddressInfo;
      await saveOptions(root, {
        MessagePusherAddress: `http://127.0.0.1:${port}/push/root`,
        MessagePusherToken: 'push-token',
      });
      const first = await channel('pushed', healthy);
      await autoDisableChannel(server.context, first, 'pushed', 'HTTP 401');
      expect(received).toEqual([
        expect.objectContaining({
          title: '渠道状态变更提醒',
          token: 'push-token',
          content: expect.stringContaining('pushed'),
        }),
      ]);
      expect(smtp.mails).toHaveLength(0);

      accept = false;
      const second = await channel('mailed', healthy);
      await autoDisableChannel(server.context, second, 'mailed', 'HTTP 401');
      expect(received).toHaveLength(2);
      await smtp.waitForMail((mail) => mail.html.includes('mailed'));
    } finally {
      await saveOptions(root, { MessagePusherAddress: '' });
      await new Promise<void>((resolve) => pusher.close(() => resolve()));
    }
  });

  test('a channel slower than ChannelDisableThreshold is disabled, or only reported when automatic disabling is off', async () => {
    const slowUpstream = await MockOpenAIUpstream.start({ latencyMs: 300 });
    try {
      const fast = await channel('fast', healthy);
      const slow = await channel('slow', slowUpstream);
      await saveOptions(root, { ChannelDisableThreshold: 0.2 });
      await root.get('/api/channel/test');
      await finishBulkTest();
      expect([await statusOf(server, fast), await statusOf(server, slow)]).toEqual([1, 3]);
      await smtp.waitForMail((mail) => mail.subject === '渠道测试完成');
      expect(mailsAbout('slow')[0]!.html).toMatch(/响应时间 0\.\d\ds 超过阈值 0\.20s/);

      await root.put('/api/channel/', { id: slow, status: 1 });
      await saveOptions(root, { AutomaticDisableChannelEnabled: false });
      smtp.mails.length = 0;
      await root.get('/api/channel/test');
      await finishBulkTest();
      expect(await statusOf(server, slow)).toBe(1);
      const summary = await smtp.waitForMail((mail) => mail.subject === '渠道测试完成');
      expect(summary.html).toContain('响应过慢');
      expect(summary.html).toContain('slow');
    } finally {
      await slowUpstream.close();
    }
  });

  test('only one bulk test runs at a time, and the flag is released when it ends', async () => {
    healthy.set({ latencyMs: 300 });
    await channel('first', healthy);
    await channel('second', healthy);
    const [started, refused] = await Promise.all([root.get('/api/channel/test'), root.get('/api/channel/test')]);
    expect([started.body.success, refused.body.success].sort()).toEqual([false, true]);
    expect([started.body.message, refused.body.message]).toContain('测试已在运行中');
    const progress = await eventually(async () => {
      const data = (await root.get('/api/channel/test/status')).body.data;
      return data.total === 2 && data;
    });
    expect(progress).toMatchObject({ running: true, scope: 'all', total: 2 });
    expect((await root.get('/api/channel/test')).body).toEqual({ success: false, message: '测试已在运行中' });
    expect(await finishBulkTest()).toMatchObject({ done: 2, total: 2 });
    healthy.set({});
    expect((await root.get('/api/channel/test')).body.success).toBe(true);
    await finishBulkTest();
  });

  test.runIf(engine.redis)('with Redis, a bulk test on one node blocks and shows on the others', async () => {
    const other = await startTestServer({ engine, shareDatabaseWith: server });
    try {
      healthy.set({ latencyMs: 300 });
      await channel('shared', healthy);
      expect((await root.get('/api/channel/test')).body.success).toBe(true);
      const otherRoot = await other.rootClient();
      expect((await otherRoot.get('/api/channel/test')).body).toEqual({ success: false, message: '测试已在运行中' });
      const progress = await eventually(async () => {
        const data = (await otherRoot.get('/api/channel/test/status')).body.data;
        return data.total === 1 && data;
      });
      expect(progress).toMatchObject({ running: true, total: 1 });
      await finishBulkTest();
      expect((await otherRoot.get('/api/channel/test/status')).body.data).toMatchObject({ running: false, done: 1 });
    } finally {
      await other.close();
    }
  });

  test('CHANNEL_TEST_FREQUENCY runs the bulk test periodically', async () => {
    const periodic = await startTestServer({ engine, env: { CHANNEL_TEST_FREQUENCY: '1' } });
    const jobs = startJobs(periodic.context, [channelTestJob]);
    try {
      const admin = await periodic.rootClient();
      const [id] = await createChannels(periodic, admin, {
        name: 'periodic',
        type: 1,
        key: 'sk-p',
        base_url: healthy.url,
        models: 'gpt-3.5-turbo',
      });
      await eventually(async () => Number((await channelRow(periodic, id!))!.test_time) > 0);
      expect(healthy.requests.some((request) => request.headers.authorization === 'Bearer sk-p')).toBe(true);
    } finally {
      await jobs.stop();
      await periodic.close();
    }
  });
});
