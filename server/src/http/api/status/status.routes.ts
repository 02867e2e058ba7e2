import { isRedisReady } from '../../../cache/redis-connection.js';
import type { AppContext } from '../../../context.js';
import { limitsStatus } from '../../../relay/limits/call-limits.js';
import { relayRuntime } from '../../../relay/runtime.js';
import type { RouteModule } from '../route-kit.js';
import { ok } from '../../reply.js';

const startTime = Math.floor(Date.now() / 1000);

/**
 * What this node is running without, from flags the connections keep (no query per call): `redis` while
 * Redis (commands or the invalidation bus) does not answer, `database` while a lost database session has
 * not been followed by a successful connection, `storage` while the relay's charges cannot be written (a
 * full disk: they wait in the journal, see settlement-writer.ts). Empty when healthy.
 */
export function degradedReasons(context: AppContext): string[] {
  const reasons: string[] = [];
  if (context.redis && !(isRedisReady(context.redis) && context.bus.connected)) reasons.push('redis');
  const { database, logDatabase } = context;
  if (database.health?.healthy === false || logDatabase.health?.healthy === false) reasons.push('database');
  if (relayRuntime(context).settlements.failing) reasons.push('storage');
  return reasons;
}

/**
 * Public information: server status (and whether this node is degraded), notice, about, home page content;
 * the group list for admins.
 */
export const statusRoutes: RouteModule = (app, { context, requireAdmin }) => {
  const { options, config } = context;
  // Options and flags only: none of these waits for the relay's pending charges.
  const noChargeWait = { config: { readsNoCharges: true } };

  app.get('/status', noChargeWait, async () => {
    const reasons = degradedReasons(context);
    return ok({
      version: config.VERSION,
      start_time: startTime,
      email_verification: options.bool('EmailVerificationEnabled'),
      github_oauth: options.bool('GitHubOAuthEnabled'),
      github_client_id: options.string('GitHubClientId'),
      lark_client_id: options.string('LarkClientId'),
      system_name: options.string('SystemName'),
      logo: options.string('Logo'),
      footer_html: options.string('Footer'),
      wechat_qrcode: options.string('WeChatAccountQRCodeImageURL'),
      wechat_login: options.bool('WeChatAuthEnabled'),
      server_address: options.string('ServerAddress'),
      turnstile_check: options.bool('TurnstileCheckEnabled'),
      turnstile_site_key: options.string('TurnstileSiteKey'),
      top_up_link: options.string('TopUpLink'),
      chat_link: options.string('ChatLink'),
      quota_per_unit: options.number('QuotaPerUnit'),
      display_in_currency: options.bool('DisplayInCurrencyEnabled'),
      oidc: options.bool('OidcEnabled'),
      oidc_client_id: options.string('OidcClientId'),
      oidc_well_known: options.string('OidcWellKnown'),
      oidc_authorization_endpoint: options.string('OidcAuthorizationEndpoint'),
      oidc_token_endpoint: options.string('OidcTokenEndpoint'),
      oidc_userinfo_endpoint: options.string('OidcUserinfoEndpoint'),
      // Not in one-api (its clients ignore unknown fields): true while this node runs without Redis or has
      // lost its database, with the reasons.
      degraded: reasons.length > 0,
      degraded_reasons: reasons,
      // Issue 31: how this node enforces rate limits (redis, shared = limit ÷ live nodes while Redis is lost, node).
      limits: limitsStatus(context),
    });
  });

  app.get('/notice', noChargeWait, async () => ok(options.string('Notice')));
  app.get('/about', noChargeWait, async () => ok(options.string('About')));
  app.get('/home_page_content', noChargeWait, async () => ok(options.string('HomePageContent')));

  app.get('/group', { preHandler: requireAdmin }, async () =>
    ok(Object.keys(options.json<Record<string, number>>('GroupRatio')).sort()),
  );
};
