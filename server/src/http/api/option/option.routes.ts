import { optionPreviewBody, updateOptionBody } from '@modelgate/wire';
import { previewOptions } from '../../../domain/option/option.preview.js';
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

  // What a save of these values would do to prices, before it is made: the console asks the admin first.
  app.post('/option/preview', { preHandler: requireRoot }, async (request) => {
    const { options } = validate(optionPreviewBody, request.body);
    return ok(await previewOptions(context, options));
  });
};
