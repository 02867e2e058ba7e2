import { openApiDocument } from '@modelgate/wire';
import type { RouteModule } from '../route-kit.js';

/** GET /api/openapi.json: the OpenAPI 3.1 document of /api and /v1, generated once from the wire schemas. */
export const openApiRoutes: RouteModule = (app, { context }) => {
  let document: ReturnType<typeof openApiDocument> | undefined;
  app.get('/openapi.json', async () => (document ??= openApiDocument(context.config.VERSION)));
};
