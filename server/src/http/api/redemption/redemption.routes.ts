import {
  createRedemptionBody,
  idParams,
  redemptionListQuery,
  redemptionSearchQuery,
  statusChangeBody,
  statusOnlyQuery,
  topUpBody,
  updateRedemptionBody,
} from '@modelgate/wire';
import { presentRedemption } from '../../../domain/redemption/redemption.presenter.js';
import { listRedemptions, searchRedemptions } from '../../../domain/redemption/redemption.repository.js';
import {
  createRedemptions,
  editRedemption,
  findRedemptionOrThrow,
  redeemCode,
  removeRedemption,
  setRedemptionStatus,
} from '../../../domain/redemption/redemption.service.js';
import { currentUser } from '../../middleware/authenticate.js';
import { ok } from '../../reply.js';
import { validate } from '../../validate.js';
import { objectBody, type RouteModule } from '../route-kit.js';

/** Redemption codes (admin), and redeeming one (any signed-in user, POST /api/user/topup). */
export const redemptionRoutes: RouteModule = (app, { context, requireAdmin, requireUser }) => {
  const db = context.database.db;

  app.get('/redemption', { preHandler: requireAdmin }, async (request) => {
    const { p } = validate(redemptionListQuery, request.query);
    return ok((await listRedemptions(db, p)).map(presentRedemption));
  });

  app.get('/redemption/search', { preHandler: requireAdmin }, async (request) => {
    const { keyword } = validate(redemptionSearchQuery, request.query);
    return ok((await searchRedemptions(db, keyword)).map(presentRedemption));
  });

  app.get('/redemption/:id', { preHandler: requireAdmin }, async (request) => {
    const { id } = validate(idParams, request.params);
    return ok(presentRedemption(await findRedemptionOrThrow(context, id)));
  });

  app.post('/redemption', { preHandler: requireAdmin }, async (request) => {
    const input = validate(createRedemptionBody, objectBody(request.body));
    return ok(await createRedemptions(context, currentUser(request).id, input));
  });

  app.put('/redemption', { preHandler: requireAdmin }, async (request) => {
    // one-api switches to a status-only update on any non-empty status_only value.
    if (validate(statusOnlyQuery, request.query).status_only) {
      const { id, status } = validate(statusChangeBody, objectBody(request.body));
      return ok(presentRedemption(await setRedemptionStatus(context, id, status)));
    }
    const { id, name, quota } = validate(updateRedemptionBody, objectBody(request.body));
    return ok(presentRedemption(await editRedemption(context, id, { name, quota })));
  });

  app.delete('/redemption/:id', { preHandler: requireAdmin }, async (request) => {
    const { id } = validate(idParams, request.params);
    await removeRedemption(context, id);
    return ok();
  });

  app.post('/user/topup', { preHandler: requireUser }, async (request) => {
    const { key } = validate(topUpBody, objectBody(request.body));
    return ok(await redeemCode(context, currentUser(request), key));
  });
};
