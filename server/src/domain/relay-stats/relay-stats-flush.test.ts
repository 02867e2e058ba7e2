import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../../test/engines.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { flushRelayStats, recordRelayOutcome } from './relay-stats.service.js';

// A minute of a large installation: 450 channels each serving a call of two models, flushed as upserts of 200
// cells; the same cells again add to their rows.
const channels = 450;

describe.each(await availableEngines())('the relay outcome flush on $label', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine });
  });
  afterAll(() => server?.close());

  const record = () => {
    for (let channelId = 1; channelId <= channels; channelId++) {
      recordRelayOutcome(server.context, { model: 'model-a', channelId, success: true, elapsedMs: 8 });
      recordRelayOutcome(server.context, { model: 'model-b', channelId, success: channelId % 3 !== 0, elapsedMs: 700 });
    }
  };
  const stored = () =>
    server.context.database.db
      .selectFrom('relay_outcomes')
      .select((eb) => [
        eb.fn.countAll<number>().as('rows'),
        eb.fn.sum<number>('success_count').as('successes'),
        eb.fn.sum<number>('failure_count').as('failures'),
        eb.fn.sum<number>('latency_le_10').as('fast'),
        eb.fn.sum<number>('latency_le_1000').as('slow'),
      ])
      .executeTakeFirstOrThrow();

  test('writes one row per channel and model, and adds a later flush of the same minute to them', async () => {
    const minuteOf = () => Math.floor(Date.now() / 60_000);
    const minute = minuteOf();
    record();
    expect(await flushRelayStats(server.context)).toBe(2 * channels);
    const first = await stored();
    expect(Number(first.rows)).toBe(2 * channels);
    expect(Number(first.successes)).toBe(channels + (channels - channels / 3));
    expect(Number(first.failures)).toBe(channels / 3);
    expect(Number(first.fast)).toBe(channels);
    // Only answered calls have a latency.
    expect(Number(first.slow)).toBe(channels - channels / 3);

    record();
    expect(await flushRelayStats(server.context)).toBe(2 * channels);
    const second = await stored();
    // Unless the minute turned in between, the second flush landed on the same rows.
    if (minuteOf() === minute) expect(Number(second.rows)).toBe(2 * channels);
    expect(Number(second.successes)).toBe(2 * Number(first.successes));
    expect(Number(second.failures)).toBe(2 * Number(first.failures));
    expect(Number(second.fast)).toBe(2 * channels);
    expect(Number(second.slow)).toBe(2 * (channels - channels / 3));
    expect(await flushRelayStats(server.context)).toBe(0);
  });
});
