import type { FastifyInstance } from 'fastify';
import { maxJsonDepth, nestsDeeperThan } from '../lib/json-body.js';
import { AppError } from '../lib/errors.js';

const tooDeep = () =>
  new AppError(
    'json_too_deep',
    { zh: `请求体的嵌套超过 ${maxJsonDepth} 层`, en: `the request body nests deeper than ${maxJsonDepth} levels` },
    400,
  );

/**
 * The JSON body parser of /api and the console: Fastify's own (which refuses `__proto__` and `constructor`
 * poisoning), after the nesting limit every relay front applies too (lib/json-body.ts).
 */
export function registerJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    if (nestsDeeperThan(body)) return done(tooDeep(), undefined);
    parse(request, body.toString('utf8'), done);
  });
}
