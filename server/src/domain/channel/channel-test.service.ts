import type { AppContext } from '../../context.js';
import type { ChannelRow } from '../../db/tables.js';
import { nowSeconds } from '../../lib/time.js';
import { LogType } from '../log/log.constants.js';
import { recordLog } from '../log/log.writer.js';
import { splitList } from './channel-abilities.js';
import { channelRelay, type ProbeResult } from './channel-relay.js';
import { defaultTestModel } from './channel.constants.js';
import { recordChannelTest } from './channel.repository.js';

/** Longest upstream text kept in a test log line. */
const maxLoggedText = 1000;

/**
 * The model a test asks for: the requested one (else gpt-3.5-turbo) when the channel lists it, otherwise the
 * channel's first model. one-api checked "is a substring of the model list", so `gpt-4` passed on a channel
 * listing only `gpt-4o`; we compare whole names. The channel's model mapping is applied by the probe.
 */
export function pickTestModel(channel: Pick<ChannelRow, 'models'>, requested: string): string {
  const wanted = requested.trim() || defaultTestModel;
  const models = splitList(channel.models);
  if (models.length === 0 || models.includes(wanted)) return wanted;
  return models[0]!;
}

/** Runs the probe, turning a thrown error into a failed result so callers have one shape to handle. */
async function safeProbe(context: AppContext, channel: ChannelRow, model: string): Promise<ProbeResult> {
  const startedAt = Date.now();
  try {
    const relay = channelRelay(context);
    if (!relay) throw new Error('the relay has not started on this node');
    return await relay.probe(channel, model);
  } catch (error) {
    context.logger.error({ err: error, channelId: channel.id }, 'channel probe threw');
    return {
      success: false,
      message: (error as Error).message || 'probe failed',
      elapsedMs: Date.now() - startedAt,
      model,
    };
  }
}

/**
 * Tests one channel with one chat completion and records the outcome: the channel's response_time and
 * test_time, and a test log (type 5). `keepTimeOnFailure` keeps the latency of a failed call (bulk tests);
 * a failed single test stores 0, as one-api does. It never changes the channel's status.
 */
export async function testChannel(
  context: AppContext,
  channel: ChannelRow,
  requestedModel: string,
  keepTimeOnFailure = false,
): Promise<ProbeResult> {
  const model = pickTestModel(channel, requestedModel);
  const result = await safeProbe(context, channel, model);
  const responseTimeMs = result.success || keepTimeOnFailure ? result.elapsedMs : 0;
  await recordChannelTest(context.database.db, channel.id, responseTimeMs, nowSeconds());
  const text = result.message.slice(0, maxLoggedText);
  await recordLog(context, {
    user_id: 0,
    type: LogType.Test,
    content: result.success
      ? `渠道 ${channel.name} 测试成功，响应：${text}`
      : `渠道 ${channel.name} 测试失败，错误：${text}`,
    model_name: model,
    channel_id: channel.id,
    elapsed_time: Math.round(result.elapsedMs),
  }).catch((error: unknown) => context.logger.error({ err: error }, 'writing the test log failed'));
  return { ...result, model };
}
