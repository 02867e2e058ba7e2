import {
  createTokenBody,
  idParams,
  statusChangeBody,
  statusOnlyQuery,
  tokenListQuery,
  tokenSearchQuery,
  updateTokenBody,
} from '@modelgate/wire';
import { presentToken } from '../../../domain/token/token.presenter.js';
import { findTokenOfUser, listTokensOfUser, searchTokensOfUser } from '../../../domain/token/token.repository.js';
import { createToken, deleteToken, setTokenStatus, updateToken } from '../../../domain/token/token.service.js';
import { tokenNotFound } from '../../../domain/token/token.errors.js';
import { currentUser } from '../../middleware/authenticate.js';
import { ok } from '../../reply.js';
import { validate } from '../../validate.js';
import { objectBody, type RouteModule } from '../route-kit.js';

/** API tokens (relay keys): every route works on the caller's own tokens only. */
export const tokenRoutes: RouteModule = (app, { context, requireUser }) => {
  const db = context.database.db;

  app.get('/token', { preHandler: requireUser }, async (request) => {
    const { p, order } = validate(tokenListQuery, request.query);
    const tokens = await listTokensOfUser(db, currentUser(request).id, p, order);
    return ok(tokens.map(presentToken));
  });

  app.get('/token/search', { preHandler: requireUser }, async (request) => {
    const { keyword } = validate(tokenSearchQuery, request.query);
    const tokens = await searchTokensOfUser(db, currentUser(request).id, keyword);
    return ok(tokens.map(presentToken));
  });

  app.get('/token/:id', { preHandler: requireUser }, async (request) => {
    const { id } = validate(idParams, request.params);
    const token = await findTokenOfUser(db, currentUser(request).id, id);
    if (!token) throw tokenNotFound();
    return ok(presentToken(token));
  });

  app.post('/token', { preHandler: requireUser }, async (request) => {
    const fields = validate(createTokenBody, objectBody(request.body));
    return ok(presentToken(await createToken(context, currentUser(request).id, fields)));
  });

  app.put('/token', { preHandler: requireUser }, async (request) => {
    const userId = currentUser(request).id;
    // one-api switches to a status-only update on any non-empty status_only value.
    if (validate(statusOnlyQuery, request.query).status_only) {
      const { id, status } = validate(statusChangeBody, objectBody(request.body));
      return ok(presentToken(await setTokenStatus(context, userId, id, status)));
    }
    const { id, ...fields } = validate(updateTokenBody, objectBody(request.body));
    return ok(presentToken(await updateToken(context, userId, id, fields)));
  });

  app.delete('/token/:id', { preHandler: requireUser }, async (request) => {
    const { id } = validate(idParams, request.params);
    await deleteToken(context, currentUser(request).id, id);
    return ok();
  });
};
