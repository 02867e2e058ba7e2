import {
  adminTopUpBody,
  createUserBody,
  idParams,
  manageUserBody,
  updateUserBody,
  userListQuery,
  userSearchQuery,
} from '@modelgate/wire';
import {
  deleteUserAsAdmin,
  findLiveUserOrThrow,
  manageUser,
  outranks,
  topUpUser,
  updateUserAsAdmin,
} from '../../../domain/user/user.admin.js';
import { createAccount } from '../../../domain/user/user.creation.js';
import { UserErrors } from '../../../domain/user/user.errors.js';
import { hashPassword } from '../../../domain/user/user.password.js';
import { presentUser } from '../../../domain/user/user.presenter.js';
import { listUsers, searchUsers, type UserOrder } from '../../../domain/user/user.repository.js';
import { currentUser } from '../../middleware/authenticate.js';
import { renewUserSession } from '../../middleware/session.js';
import { ok } from '../../reply.js';
import { validate } from '../../validate.js';
import type { RouteModule } from '../route-kit.js';

/** one-api's ITEMS_PER_PAGE. */
const itemsPerPage = 10;
/** Search answers are capped (one-api had no limit). */
const maxSearchResults = 100;
const orders = new Set<UserOrder>(['quota', 'used_quota', 'request_count']);

/** User administration (admin+). Access tokens never leave: one-api's list and search leaked them. */
export const userAdminRoutes: RouteModule = (app, { context, requireAdmin }) => {
  const db = () => context.database.db;

  app.get('/user/', { preHandler: requireAdmin }, async (request) => {
    const { p, order } = validate(userListQuery, request.query);
    const sort = orders.has(order as UserOrder) ? (order as UserOrder) : 'id';
    return ok((await listUsers(db(), p, itemsPerPage, sort)).map((user) => presentUser(user)));
  });

  app.get('/user/search', { preHandler: requireAdmin }, async (request) => {
    const { keyword } = validate(userSearchQuery, request.query);
    return ok((await searchUsers(db(), keyword, maxSearchResults)).map((user) => presentUser(user)));
  });

  app.get('/user/:id', { preHandler: requireAdmin }, async (request) => {
    const { id } = validate(idParams, request.params);
    const target = await findLiveUserOrThrow(context, id);
    if (!outranks(currentUser(request), target)) throw UserErrors.noRightToView();
    return ok(presentUser(target));
  });

  app.post('/user/', { preHandler: requireAdmin }, async (request) => {
    const body = validate(createUserBody, request.body);
    if ((body.role ?? 0) >= currentUser(request).role) throw UserErrors.cannotCreateHigher();
    await createAccount(context, {
      username: body.username,
      passwordHash: await hashPassword(body.password),
      displayName: body.display_name || body.username,
    });
    return ok();
  });

  app.put('/user/', { preHandler: requireAdmin }, async (request, reply) => {
    const changes = validate(updateUserBody, request.body);
    const caller = currentUser(request);
    const updated = await updateUserAsAdmin(context, caller, changes);
    // Root changing its own password keeps the session it did it from; its other sessions end.
    if (updated.id === caller.id && request.authMethod === 'session')
      await renewUserSession(context, request, reply, updated);
    return ok(presentUser(updated));
  });

  app.post('/user/manage', { preHandler: requireAdmin }, async (request) => {
    const { username, action } = validate(manageUserBody, request.body);
    const user = await manageUser(context, currentUser(request), username, action);
    return ok(presentUser(user));
  });

  app.delete('/user/:id', { preHandler: requireAdmin }, async (request) => {
    const { id } = validate(idParams, request.params);
    await deleteUserAsAdmin(context, currentUser(request), id);
    return ok();
  });

  app.post('/topup', { preHandler: requireAdmin }, async (request) => {
    const { user_id, quota, remark } = validate(adminTopUpBody, request.body);
    await topUpUser(context, user_id, quota, remark);
    return ok();
  });
};
