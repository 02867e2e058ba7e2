import type { TokenRow } from '../../db/tables.js';
import { limitFieldsOf } from '../limits/limit-fields.js';

/** The token object of the management API (one-api's keys, `unlimited_quota` as a boolean). */
export function presentToken(token: TokenRow) {
  return {
    id: token.id,
    user_id: Number(token.user_id),
    key: token.key,
    status: Number(token.status),
    name: token.name ?? '',
    created_time: Number(token.created_time),
    accessed_time: Number(token.accessed_time),
    expired_time: Number(token.expired_time),
    remain_quota: Number(token.remain_quota),
    unlimited_quota: Boolean(token.unlimited_quota),
    used_quota: Number(token.used_quota),
    models: token.models ?? null,
    subnet: token.subnet ?? null,
    ...limitFieldsOf(token),
  };
}

export type PresentedToken = ReturnType<typeof presentToken>;
