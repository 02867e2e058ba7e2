import { updateOptionBody } from '@modelgate/wire';
import { updateOption } from '../../../domain/option/option.service.js';
import { ok } from '../../reply.js';
import { validate } from '../../validate.js';
import type { RouteModule } from '../route-kit.js';

/** Runtime options: root only; secrets are write-only. */
export const optionRoutes: RouteModule = (app, { context, requireRoot }) => {
  app.get('/option', { preHandler: requireRoot }, async () => ok(context.options.visibleEntries()));

  app.put('/option', { preHandler: requireRoot }, async (request) => {
    const { key, value } = validate(updateOptionBody, request.body);
    await updateOption(context.database, context.options, key, value);
    await context.bus.publish('options', key);
    return ok();
  });
};
