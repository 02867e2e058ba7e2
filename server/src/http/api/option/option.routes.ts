import { optionPreviewBody, updateOptionBody } from '@modelgate/wire';
import { previewOptions } from '../../../domain/option/option.preview.js';
import { updateOption } from '../../../domain/option/option.service.js';
import { assertRecentAuth } from '../../middleware/authenticate.js';
import { ok } from '../../reply.js';
import { validate } from '../../validate.js';
import type { RouteModule } from '../route-kit.js';

/**
 * The options that set what calls cost (decision 0030): a session writes them only within five minutes of
 * signing in or re-authenticating, as it writes /api/price/. The ratio tables, the quota per US$ (which turns
 * list prices into quota), the web-search price and the price of unpriced models.
 */
export const priceOptionKeys: ReadonlySet<string> = new Set([
  'ModelRatio',
  'CompletionRatio',
  'GroupRatio',
  'QuotaPerUnit',
  'WebSearchPrice',
  'DefaultModelPrice',
]);

/** Runtime options: root only; secrets are write-only; price options ask for a recent sign-in. */
export const optionRoutes: RouteModule = (app, { context, requireRoot }) => {
  app.get('/option', { preHandler: requireRoot }, async () => ok(context.options.visibleEntries()));

  app.put('/option', { preHandler: requireRoot }, async (request) => {
    const { key, value } = validate(updateOptionBody, request.body);
    if (priceOptionKeys.has(key)) assertRecentAuth(request);
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
