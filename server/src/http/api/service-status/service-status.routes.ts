import { serviceStatus } from '../../../domain/relay-stats/relay-stats.service.js';
import { Role } from '../../../domain/user/user.constants.js';
import { AppError } from '../../../lib/errors.js';
import { nowSeconds } from '../../../lib/time.js';
import { currentUser } from '../../middleware/authenticate.js';
import { ok } from '../../reply.js';
import type { RouteModule } from '../route-kit.js';

const UPDATE_CHECK_TIMEOUT_MS = 5000;

const updateCheckFailed = (reason: string) =>
  new AppError('update_check_failed', { zh: `检查更新失败：${reason}`, en: `update check failed: ${reason}` });

/**
 * The service status page's data (models of the caller's group; channels too for admins) and the update
 * check, which the server makes so that its address comes from configuration.
 */
export const serviceStatusRoutes: RouteModule = (app, { context, requireUser, requireAdmin }) => {
  app.get('/status/models', { preHandler: requireUser }, async (request) => {
    const user = currentUser(request);
    return ok(await serviceStatus(context, user, user.role >= Role.Admin, nowSeconds()));
  });

  app.get('/status/latest_release', { preHandler: requireAdmin }, async () => {
    let response: Response;
    try {
      response = await fetch(context.config.UPDATE_CHECK_URL, {
        headers: { accept: 'application/vnd.github+json', 'user-agent': 'modelgate' },
        signal: AbortSignal.timeout(UPDATE_CHECK_TIMEOUT_MS),
      });
    } catch (error) {
      throw updateCheckFailed((error as Error).message);
    }
    if (!response.ok) throw updateCheckFailed(`HTTP ${response.status}`);
    const release = (await response.json()) as { tag_name?: unknown; body?: unknown };
    return ok({ tag_name: String(release.tag_name ?? ''), body: String(release.body ?? '') });
  });
};
