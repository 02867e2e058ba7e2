import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { deletePriceQuery, priceImportBody, priceListQuery, setPriceBody } from '@modelgate/wire';
import { effectivePrices } from '../../../domain/pricing/effective-prices.js';
import { importPrices } from '../../../domain/pricing/price-import.js';
import { importLimitBytes, readPriceSource } from '../../../domain/pricing/price-file.js';
import { priceBook } from '../../../domain/pricing/price-book.js';
import { Role } from '../../../domain/user/user.constants.js';
import { AppError, invalidParameter } from '../../../lib/errors.js';
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

  // The import's body is read as bytes and parsed off the event loop (domain/pricing/price-file.ts); the
  // answer, which lists every model a large file moves, is written in slices too.
  await app.register(async (imports) => {
    imports.removeContentTypeParser('application/json');
    imports.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    const importRoute = (apply: boolean) => async (request: FastifyRequest, reply: FastifyReply) => {
      if (!Buffer.isBuffer(request.body)) throw invalidParameter('send the import as a JSON body');
      const read = await readPriceSource({ body: request.body });
      const body = validate(priceImportBody, read.envelope);
      // What the audit trail and the logs see of the request: its fields, not the file's bytes.
      request.body = body;
      if (body.path !== undefined && currentUser(request).role < Role.Root) throw rootOnlyPath();
      const { entries } =
        body.path !== undefined ? await readPriceSource({ path: body.path, providers: body.providers }) : read;
      const preview = await importPrices(context, entries, { providers: body.providers, models: body.models, apply });
      const answer = Object.assign(Readable.from(slicedAnswer(preview)), { auditAnswer: ok(preview) });
      return reply.type('application/json; charset=utf-8').send(answer);
    };
    imports.post(
      '/price/import/preview',
      { preHandler: requireAdmin, bodyLimit: importLimitBytes },
      importRoute(false),
    );
    imports.post(
      '/price/import',
      { preHandler: [requireAdmin, requireRecentAuth], bodyLimit: importLimitBytes },
      importRoute(true),
    );
  });
};

/**
 * `ok(preview)` as JSON text in pieces: a 100,000-model preview is tens of megabytes, which one JSON.stringify
 * would write in one turn of the event loop.
 */
async function* slicedAnswer(preview: Record<string, unknown>): AsyncGenerator<string> {
  yield '{"success":true,"message":"","data":{';
  let first = true;
  for (const [name, value] of Object.entries(preview)) {
    yield `${first ? '' : ','}${JSON.stringify(name)}:`;
    first = false;
    if (!Array.isArray(value)) {
      yield JSON.stringify(value);
      continue;
    }
    yield '[';
    for (let start = 0; start < value.length; start += 500) {
      yield `${start === 0 ? '' : ','}${value
        .slice(start, start + 500)
        .map((item) => JSON.stringify(item))
        .join(',')}`;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    yield ']';
  }
  yield '}}';
}
