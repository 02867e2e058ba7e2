import { bulkTestQuery, channelTestQuery, idParams } from '@modelgate/wire';
import { startBulkTest, bulkTestProgress } from '../../../domain/channel/channel-bulk-test.service.js';
import {
  balanceRefreshProgress,
  refreshChannelBalance,
  startBalanceRefresh,
} from '../../../domain/channel/channel-balance.service.js';
import { channelNotFound } from '../../../domain/channel/channel.errors.js';
import { findChannelById } from '../../../domain/channel/channel.repository.js';
import { testChannel } from '../../../domain/channel/channel-test.service.js';
import { AppError } from '../../../lib/errors.js';
import { languageOf } from '../../../lib/language.js';
import { ok } from '../../reply.js';
import { validate } from '../../validate.js';
import type { RouteModule } from '../route-kit.js';

const alreadyRunning = (what: { zh: string; en: string }) => new AppError('already_running', what);

/** Channel health (admins): single and bulk tests, balance queries, and the progress of background runs. */
export const channelHealthRoutes: RouteModule = (app, { context, requireAdmin }) => {
  app.get('/channel/test/status', { preHandler: requireAdmin }, async () => ok(await bulkTestProgress(context)));

  /** one-api's answer shape: the reply (or the error) in `message`, `time` in seconds, no `data`. */
  app.get('/channel/test/:id', { preHandler: requireAdmin }, async (request) => {
    const { id } = validate(idParams, request.params);
    const { model } = validate(channelTestQuery, request.query);
    const channel = await findChannelById(context.database.db, id);
    if (!channel) throw channelNotFound();
    const result = await testChannel(context, channel, model);
    return {
      success: result.success,
      message: result.message,
      time: result.elapsedMs / 1000,
      model: result.model,
      modelName: model,
    };
  });

  app.get('/channel/test', { preHandler: requireAdmin }, async (request) => {
    const { scope } = validate(bulkTestQuery, request.query);
    const run = await startBulkTest(context, scope, true);
    if (!run) throw alreadyRunning({ zh: '测试已在运行中', en: 'a channel test is already running' });
    return ok();
  });

  app.get('/channel/update_balance/status', { preHandler: requireAdmin }, async () =>
    ok(await balanceRefreshProgress(context)),
  );

  /** one-api's answer shape: `balance` at the top level. */
  app.get('/channel/update_balance/:id', { preHandler: requireAdmin }, async (request) => {
    const { id } = validate(idParams, request.params);
    const channel = await findChannelById(context.database.db, id);
    if (!channel) throw channelNotFound();
    try {
      const balance = await refreshChannelBalance(context, channel);
      return { success: true, message: '', balance };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return { success: false, message: error.text[languageOf(request.headers['accept-language'])], balance: 0 };
    }
  });

  app.get('/channel/update_balance', { preHandler: requireAdmin }, async () => {
    if (!(await startBalanceRefresh(context))) {
      throw alreadyRunning({ zh: '余额更新已在运行中', en: 'a balance refresh is already running' });
    }
    return ok();
  });
};
