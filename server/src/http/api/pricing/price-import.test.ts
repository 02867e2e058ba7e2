import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ApiClient } from '../../../../test/api-client.js';
import { availableEngines } from '../../../../test/engines.js';
import { createChannel } from '../../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';
import { resolvePrice } from '../../../domain/pricing/resolve-price.js';
import { ChannelType } from '../../../domain/channel/channel.constants.js';

/** models.dev's Claude Sonnet 4.5, with a new input price and, as models.dev has it, no 1-hour cache write. */
const sonnet = {
  input: 2.5,
  output: 15,
  cache_read: 0.3,
  cache_write: 3.75,
  context_over_200k: { input: 6, output: 22.5 },
};

/** Issue 29, point 5: the models.dev import merges by price class and says what it moves. */
describe.each(await availableEngines())('a models.dev import on $label', (engine) => {
  let server: TestServer;
  let root: ApiClient;
  beforeAll(async () => {
    server = await startTestServer({ engine });
    root = await server.rootClient();
    await createChannel(server, {
      base_url: 'http://127.0.0.1:9',
      type: ChannelType.Anthropic,
      models: 'claude-sonnet-4-5',
    });
  });
  afterAll(async () => server?.close());

  const preview = async (data: unknown, extra: Record<string, unknown> = {}) => {
    const answer = await root.post('/api/price/import/preview', { data, ...extra });
    expect(answer.body.success).toBe(true);
    return answer.body.data;
  };

  test('a class the file lacks keeps its price, and the preview names every class moved or kept', async () => {
    const data = await preview({ anthropic: { models: { 'claude-sonnet-4-5': { cost: sonnet } } } });
    expect(data.unchanged).toBe(0);
    expect(data.changes).toHaveLength(1);
    const [change] = data.changes;
    expect(change).toMatchObject({ model: 'claude-sonnet-4-5', served: true, before_source: 'catalogue' });
    expect(change.after).toMatchObject({ input: 2.5, cache_write: 3.75, cache_write_1h: 6 });
    expect(change.classes).toEqual(
      expect.arrayContaining([
        { class: 'input', above: null, before: 3, after: 2.5, change: 'changed' },
        { class: 'cache_write_1h', above: null, before: 6, after: 6, change: 'kept' },
      ]),
    );
    expect(change.classes.filter((entry: { change: string }) => entry.change === 'dropped')).toEqual([]);

    const applied = await root.post('/api/price/import', {
      data: { anthropic: { models: { 'claude-sonnet-4-5': { cost: sonnet } } } },
    });
    expect(applied.body.data.applied).toBe(1);
    const price = resolvePrice(server.context, 'claude-sonnet-4-5', ChannelType.Anthropic, 'default');
    expect(price.source).toBe('admin');
    // A 1-hour cache write still costs $6, not the 5-minute write's $3.75.
    expect(price.price).toMatchObject({ kind: 'list', list: { input: 2.5, cache_write_1h: 6 } });
    // The price list shows the imported model once: its admin price, which every channel type pays.
    const listed = (await root.get('/api/price/?model=claude-sonnet-4-5')).body.data as { source: string }[];
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ model: 'claude-sonnet-4-5', channel_type: null, source: 'admin' });
    // The same file again changes nothing.
    expect(await preview({ anthropic: { models: { 'claude-sonnet-4-5': { cost: sonnet } } } })).toMatchObject({
      changes: [],
      unchanged: 1,
    });
  });

  test('a conflict names each side’s price, and only served models are marked served', async () => {
    const data = await preview({
      anthropic: { models: { 'claude-new-7': { cost: { input: 2, output: 10 } }, 'fresh-1': { cost: { input: 1 } } } },
      reseller: { models: { 'claude-new-7': { cost: { input: 2.2, output: 11 } } } },
      mirror: { models: { 'fresh-1': { cost: { input: 1 } } } },
    });
    expect(data.conflicts).toEqual([
      {
        model: 'claude-new-7',
        prices: [
          { provider: 'anthropic', price: { input: 2, output: 10 } },
          { provider: 'reseller', price: { input: 2.2, output: 11 } },
        ],
      },
    ]);
    // Two providers with the same price are one row.
    expect(data.changes).toEqual([
      expect.objectContaining({ model: 'fresh-1', provider: 'anthropic', served: false, before: null }),
    ]);
    expect(data.changes[0].classes).toEqual([{ class: 'input', above: null, before: null, after: 1, change: 'added' }]);
  });
});
