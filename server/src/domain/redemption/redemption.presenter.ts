import type { RedemptionRow } from '../../db/tables.js';

/** The redemption object of the management API (admin only: it carries the code itself). */
export function presentRedemption(redemption: RedemptionRow) {
  return {
    id: redemption.id,
    user_id: Number(redemption.user_id),
    key: redemption.key.trim(),
    status: Number(redemption.status),
    name: redemption.name ?? '',
    quota: Number(redemption.quota),
    created_time: Number(redemption.created_time),
    redeemed_time: Number(redemption.redeemed_time),
    /** Who redeemed it (0 while unused); one-api did not record this. */
    used_user_id: Number(redemption.used_user_id ?? 0),
    // A request-only field in one-api, always 0 in answers.
    count: 0,
  };
}
