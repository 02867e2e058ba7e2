import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { ApiClient } from '../../../../test/api-client.js';
import { channelRow, createChannels, eventually } from '../../../../test/channel-test-helpers.js';
import { availableEngines } from '../../../../test/engines.js';
import { MockBalanceUpstream, type MockBalanceAccount } from '../../../../test/mock-balance-upstream.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';

const isoDate = (date: Date) => date.toISOString().slice(0, 10);

/** One case per supported type: the account the vendor holds and the balance the gateway must read. */
const supported: { type: number; label: string; account: MockBalanceAccount; balance: number }[] = [
  {
    type: 1,
    label: 'openai',
    account: { openai: { hardLimitUsd: 120, hasPaymentMethod: true, totalUsageCents: 1234.5 } },
    balance: 107.655,
  },
  {
    type: 8,
    label: 'custom',
    account: { openai: { hardLimitUsd: 18, hasPaymentMethod: false, totalUsageCents: 300 } },
    balance: 15,
  },
  { type: 4, label: 'closeai', account: { creditGrants: { field: 'total_available', amount: 14.8 } }, balance: 14.8 },
  { type: 5, label: 'openai-sb', account: { openAISB: { credit: '4567.5' } }, balance: 4567.5 },
  { type: 10, label: 'aiproxy', account: { aiProxy: { totalPoints: 888 } }, balance: 888 },
  { type: 12, label: 'api2gpt', account: { creditGrants: { field: 'total_remaining', amount: 12.5 } }, balance: 12.5 },
  { type: 13, label: 'aigc2d', account: { creditGrants: { field: 'total_available', amount: 33 } }, balance: 33 },
  { type: 20, label: 'openrouter', account: { openRouter: { totalCredits: 50, totalUsage: 12.25 } }, balance: 37.75 },
  {
    type: 36,
    label: 'deepseek',
    account: {
      deepSeek: [
        { currency: 'USD', totalBalance: '5.00' },
        { currency: 'CNY', totalBalance: '110.00' },
      ],
    },
    balance: 110,
  },
  {
    type: 44,
    label: 'siliconflow',
    account: { siliconFlow: { code: 20000, message: 'OK', totalBalance: '88.88' } },
    balance: 88.88,
  },
];

describe.each(await availableEngines())('channel balances on $label', (engine) => {
  let server: TestServer;
  let root: ApiClient;
  let vendor: MockBalanceUpstream;

  beforeAll(async () => {
    [server, vendor] = await Promise.all([startTestServer({ engine }), MockBalanceUpstream.start()]);
    root = await server.rootClient();
  });
  afterAll(async () => {
    await server?.close();
    await vendor?.close();
  });
  beforeEach(async () => {
    await server.context.database.db.deleteFrom('abilities').execute();
    await server.context.database.db.deleteFrom('channels').execute();
    vendor.accounts.clear();
    vendor.requests.length = 0;
  });

  const channelFor = async (type: number, key: string, baseUrl = vendor.url) =>
    (
      await createChannels(server, root, { name: `balance-${key}`, type, key, base_url: baseUrl, models: 'gpt-4o' })
    )[0]!;

  test.each(supported)(
    'type $type ($label) reads its vendor balance and stores it',
    async ({ type, label, account, balance }) => {
      vendor.accounts.set(`key-${label}`, account);
      const id = await channelFor(type, `key-${label}`);
      const answer = await root.get(`/api/channel/update_balance/${id}/`);
      expect(answer.body).toEqual({ success: true, message: '', balance });
      const stored = (await channelRow(server, id))!;
      expect(Number(stored.balance)).toBeCloseTo(balance, 6);
      expect(Math.abs(Number(stored.balance_updated_time) - Date.now() / 1000)).toBeLessThan(10);
      expect(vendor.requests.length).toBeGreaterThan(0);
    },
  );

  test('each vendor is asked in its own way: paths, dates, headers and query keys', async () => {
    for (const { type, label, account } of supported) {
      vendor.accounts.set(`key-${label}`, account);
      await root.get(`/api/channel/update_balance/${await channelFor(type, `key-${label}`)}`);
    }
    const today = new Date();
    const byPath = (path: string) => vendor.requests.filter((request) => request.path === path);
    const usage = byPath('/v1/dashboard/billing/usage');
    expect(usage.map((request) => request.query.get('start_date'))).toEqual([
      `${isoDate(today).slice(0, 7)}-01`,
      isoDate(new Date(today.getTime() - 100 * 24 * 3600 * 1000)),
    ]);
    expect(usage.every((request) => request.query.get('end_date') === isoDate(today))).toBe(true);
    expect(byPath('/v1/dashboard/billing/subscription')[0]!.headers.authorization).toBe('Bearer key-openai');
    expect(byPath('/api/report/getUserOverview')[0]!.headers['api-key']).toBe('key-aiproxy');
    expect(byPath('/sb-api/user/status')[0]!.query.get('api_key')).toBe('key-openai-sb');
    expect(byPath('/dashboard/billing/credit_grants')).toHaveLength(3);
    expect(byPath('/v1/credits')[0]!.headers.authorization).toBe('Bearer key-openrouter');
    expect(byPath('/user/balance')).toHaveLength(1);
    expect(byPath('/v1/user/info')).toHaveLength(1);
  });

  test('vendor refusals and unsupported types answer a clear failure and keep the old balance', async () => {
    vendor.accounts.set('no-cny', { deepSeek: [{ currency: 'USD', totalBalance: '5.00' }] });
    vendor.accounts.set('sf-bad', { siliconFlow: { code: 40001, message: 'invalid token', totalBalance: '0' } });
    vendor.accounts.set('aip-bad', { aiProxy: { errorCode: 403, message: 'forbidden' } });
    vendor.accounts.set('sb-bad', { openAISB: { refusal: 'api key not found' } });
    const cases: [number, string, string, string?][] = [
      [1, 'unknown-key', 'status code: 401'],
      [36, 'no-cny', 'currency CNY not found'],
      [44, 'sf-bad', 'code: 40001, message: invalid token'],
      [10, 'aip-bad', 'code: 403, message: forbidden'],
      [5, 'sb-bad', 'api key not found'],
      [14, 'anthropic', '尚未实现'],
      [20, 'unreachable', '无法连接上游', 'http://127.0.0.1:1'],
    ];
    for (const [type, key, message, baseUrl] of cases) {
      const id = await channelFor(type, key, baseUrl);
      const answer = await root.get(`/api/channel/update_balance/${id}`);
      expect(answer.body.success, key).toBe(false);
      expect(answer.body.message, key).toContain(message);
      expect(Number((await channelRow(server, id))!.balance_updated_time)).toBe(0);
    }
    const english = await server
      .client()
      .request('GET', `/api/channel/update_balance/1`, undefined, { 'accept-language': 'en' });
    expect(english.status).toBe(401);
    expect((await root.get('/api/channel/update_balance/abc')).body.success).toBe(false);
    expect((await root.get('/api/channel/update_balance/99999')).body).toEqual({
      success: false,
      message: '渠道不存在',
    });
  });

  test('refreshing all balances runs in the background and reports its progress', async () => {
    for (const { type, label, account } of supported) {
      vendor.accounts.set(`key-${label}`, account);
      await channelFor(type, `key-${label}`);
    }
    await channelFor(14, 'not-supported');
    expect((await root.get('/api/channel/update_balance')).body).toMatchObject({ success: true });
    const progress = await eventually(async () => {
      const data = (await root.get('/api/channel/update_balance/status')).body.data;
      return !data.running && data.started_at > 0 && data;
    });
    expect(progress).toMatchObject({ done: supported.length, total: supported.length });
    const rows = await server.context.database.db.selectFrom('channels').select(['type', 'balance']).execute();
    for (const { type, balance } of supported) {
      expect(Number(rows.find((row) => Number(row.type) === type)!.balance), `type ${type}`).toBeCloseTo(balance, 6);
    }
  });
});
