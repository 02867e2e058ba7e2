import type { FastifyRequest } from 'fastify';
import { deletePriceQuery, priceImportBody, priceListQuery, setPriceBody } from '@modelgate/wire';
import { effectivePrices } from '../../../domain/pricing/effective-prices.js';
import { importLimitBytes, importPrices, readPriceFile } from '../../../domain/pricing/price-import.js';
import { priceBook } from '../../../domain/pricing/price-book.js';
import { Role } from '../../../domain/user/user.constants.js';
import { AppError } from '../../../lib/errors.js';
import { currentUser, requireRecentAuth } from '../../middleware/authenticate.js';
import { ok } from '../../reply.js';
import { validate } from '../../validate.js';
import type { RouteModule } from '../route-kit.js';

const notFound = () =>
  new AppError('price_not_found', { zh: '该模型没有管理员设置的价格', en: 'no admin price for this model' });

const rootOnlyPath = () =>
  new AppError('forbidden', {
    zh: '只有超级管理员可以读取服务器上的文件',
    en: 'only the root user may read a file on the server',
  });

/**
 * Model prices (decision 0026): the effective prices with their source, an admin's price per model (and
 * group), and a models.dev file's import, previewed as a diff before it is applied. The admin prices are
 * read here at start, before the server answers any call. A price write needs a recent sign-in or
 * re-authentication (decision 0030).
 */
export const pricingRoutes: RouteModule = async (app, { context, requireAdmin }) => {
  await priceBook(context).load();

  app.get('/price/', { preHandler: requireAdmin }, async (request) => {
    const { model } = validate(priceListQuery, request.query);
    return ok(await effectivePrices(context, model));
  });

  app.put('/price/', { preHandler: [requireAdmin, requireRecentAuth] }, async (request) => {
    const { model, group, price, note } = validate(setPriceBody, request.body);
    await priceBook(context).save([{ model, group, list: price, note }]);
    return ok();
  });

  app.delete('/price/', { preHandler: [requireAdmin, requireRecentAuth] }, async (request) => {
    const { model, group } = validate(deletePriceQuery, request.query);
    if (!(await priceBook(context).remove(model, group))) throw notFound();
    return ok();
  });

  const importRoute = (apply: boolean) => async (request: FastifyRequest) => {
    const body = validate(priceImportBody, request.body);
    if (body.path !== undefined && currentUser(request).role < Role.Root) throw rootOnlyPath();
    const data = body.path !== undefined ? await readPriceFile(body.path) : body.data;
    return ok(await importPrices(context, data, { providers: body.providers, models: body.models, apply }));
  };
  app.post('/price/import/preview', { preHandler: requireAdmin, bodyLimit: importLimitBytes }, importRoute(false));
  app.post(
    '/price/import',
    { preHandler: [requireAdmin, requireRecentAuth], bodyLimit: importLimitBytes },
    importRoute(true),
  );
};
