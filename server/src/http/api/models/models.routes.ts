import { ChannelType } from '../../../domain/channel/channel.constants.js';
import { allChannelTypes } from '../../../relay/channel-types.js';
import { builtInModelOwners, describeModel } from '../../../relay/model-catalog.js';
import { relayRuntime } from '../../../relay/runtime.js';
import { currentUser } from '../../middleware/authenticate.js';
import { ok } from '../../reply.js';
import type { RouteModule } from '../route-kit.js';

/**
 * The model catalogue for the console (server-behaviour §2.1): built-in models per channel type, the
 * models the caller's group can use, the models served at all (for visitors), and (admins) every built-in
 * model as an OpenAI list.
 */
export const modelsRoutes: RouteModule = (app, kit) => {
  const { context, requireUser, requireAdmin } = kit;

  app.get('/models', { preHandler: requireUser }, async () => {
    const byType: Record<string, string[] | null> = {};
    for (const description of allChannelTypes()) {
      if (description.type === ChannelType.Unknown) continue;
      byType[String(description.type)] = description.type === ChannelType.Proxy ? null : [...description.models];
    }
    return ok(byType);
  });

  app.get('/user/available_models', { preHandler: requireUser }, async (request) => {
    const user = currentUser(request);
    return ok(relayRuntime(context).router.modelsOfGroup(user.group));
  });

  // Not one-api's: the console's model list for signed-out visitors, so it names only models someone can call
  // here, in any group users are put in (the default one and those with a ratio), never a channel or its group.
  app.get('/served_models', async () => {
    const groups = new Set(['default', ...Object.keys(context.options.json<Record<string, number>>('GroupRatio'))]);
    const { router } = relayRuntime(context);
    return ok([...new Set([...groups].flatMap((group) => router.modelsOfGroup(group)))].sort());
  });

  // No envelope here, as in one-api: the console reads `data` of an OpenAI model list.
  app.get('/channel/models', { preHandler: requireAdmin }, async () => ({
    object: 'list',
    data: [...builtInModelOwners().keys()].map(describeModel),
  }));
};
