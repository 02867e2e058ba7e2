import { z } from 'zod';

/** GET /api/status: public settings of the site, and whether this node runs degraded. */
export const serverStatus = z.object({
  version: z.string(),
  start_time: z.number(),
  email_verification: z.boolean(),
  github_oauth: z.boolean(),
  github_client_id: z.string(),
  lark_client_id: z.string(),
  system_name: z.string(),
  logo: z.string(),
  footer_html: z.string(),
  wechat_qrcode: z.string(),
  wechat_login: z.boolean(),
  server_address: z.string(),
  turnstile_check: z.boolean(),
  turnstile_site_key: z.string(),
  top_up_link: z.string(),
  chat_link: z.string(),
  quota_per_unit: z.number(),
  display_in_currency: z.boolean(),
  oidc: z.boolean(),
  oidc_client_id: z.string(),
  oidc_well_known: z.string(),
  oidc_authorization_endpoint: z.string(),
  oidc_token_endpoint: z.string(),
  oidc_userinfo_endpoint: z.string(),
  /** Not in one-api: true while this node runs without Redis or has lost its database. */
  degraded: z.boolean(),
  degraded_reasons: z.array(z.string()),
  /** How this node enforces rate limits (issue 31): `shared` = limit ÷ live nodes while Redis is lost. */
  limits: z.object({ mode: z.enum(['redis', 'shared', 'node']), nodes: z.number() }),
});

/**
 * Requests, success rate and median latency of one window. The median is the latency histogram's bucket that
 * holds it (more than `above_ms`, at most `at_most_ms`; null = beyond the last bound): no made-up midpoint.
 */
export const outcomeWindow = z.object({
  requests: z.number(),
  success_rate: z.number().nullable(),
  median_latency: z.object({ above_ms: z.number(), at_most_ms: z.number().nullable() }).nullable(),
});

/** GET /api/status/models: the models of the caller's group, and (admins) every channel. */
export const serviceStatusReport = z.object({
  models: z.array(
    z.object({
      model: z.string(),
      /** True when at least one enabled channel serves the model for the caller's group. */
      available: z.boolean(),
      last_hour: outcomeWindow,
      last_day: outcomeWindow,
    }),
  ),
  channels: z
    .array(
      z.object({
        channel_id: z.number(),
        name: z.string(),
        status: z.number(),
        last_hour: outcomeWindow,
        last_day: outcomeWindow,
      }),
    )
    .optional(),
});

/** GET /api/status/latest_release: the latest release, read by the server from the update-check address. */
export const releaseInfo = z.object({ tag_name: z.string(), body: z.string() });

/** GET /api/models: channel type → its built-in model names (null for the pass-through type). */
export const modelsByChannelType = z.record(z.string(), z.array(z.string()).nullable());
