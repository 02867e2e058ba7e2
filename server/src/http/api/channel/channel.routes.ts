import { channelListQuery, channelSearchQuery, idParams, patchChannelBody, patchKeys } from '@modelgate/wire';
import { presentChannel } from '../../../domain/channel/channel.presenter.js';
import { findChannelById, listChannels, searchChannels } from '../../../domain/channel/channel.repository.js';
import { channelNotFound } from '../../../domain/channel/channel.errors.js';
import {
  createChannels,
  deleteChannel,
  deleteDisabledChannels,
  patchChannel,
  updateChannel,
} from '../../../domain/channel/channel.service.js';
import { ok } from '../../reply.js';
import { validate } from '../../validate.js';
import type { RouteModule } from '../route-kit.js';
import { channelHealthRoutes } from './channel-health.routes.js';
import { createChannelBody, updateChannelBody } from './channel.schema.js';

/** Channel management (admins): list, search, read, create in batches, edit, delete. */
export const channelRoutes: RouteModule = async (app, kit) => {
  const { context, requireAdmin } = kit;
  const db = () => context.database.db;

  app.get('/channel/', { preHandler: requireAdmin }, async (request) => {
    const { p, type, status } = validate(channelListQuery, request.query);
    const channels = await listChannels(db(), p, { type, status });
    return ok(channels.map(presentChannel));
  });

  app.get('/channel/search', { preHandler: requireAdmin }, async (request) => {
    const { keyword } = validate(channelSearchQuery, request.query);
    if (keyword === '') return ok((await listChannels(db(), 0)).map(presentChannel));
    return ok((await searchChannels(db(), keyword)).map(presentChannel));
  });

  app.get('/channel/:id', { preHandler: requireAdmin }, async (request) => {
    const { id } = validate(idParams, request.params);
    const channel = await findChannelById(db(), id);
    if (!channel) throw channelNotFound();
    return ok(presentChannel(channel));
  });

  app.post('/channel/', { preHandler: requireAdmin }, async (request) => {
    const { key, ...fields } = validate(createChannelBody, request.body);
    await createChannels(context, fields, key);
    return ok();
  });

  app.put('/channel/', { preHandler: requireAdmin }, async (request) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const isQuickChange = typeof body === 'object' && Object.keys(body).every((key) => patchKeys.has(key));
    if (isQuickChange) {
      const { id, ...patch } = validate(patchChannelBody, body);
      return ok(presentChannel(await patchChannel(context, id, patch)));
    }
    const { id, ...changes } = validate(updateChannelBody, body);
    return ok(presentChannel(await updateChannel(context, id, changes)));
  });

  app.delete('/channel/disabled', { preHandler: requireAdmin }, async () => ok(await deleteDisabledChannels(context)));

  app.delete('/channel/:id', { preHandler: requireAdmin }, async (request) => {
    const { id } = validate(idParams, request.params);
    await deleteChannel(context, id);
    return ok();
  });

  await channelHealthRoutes(app, kit);
};
