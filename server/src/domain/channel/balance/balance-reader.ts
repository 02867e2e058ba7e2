import type { ChannelRow } from '../../../db/tables.js';
import { AppError } from '../../../lib/errors.js';
import { channelBaseUrlRequired } from '../channel.errors.js';

/** Reads one channel's remaining credit from its upstream (the unit is the upstream's own). */
export interface BalanceReader {
  /** Channel types this reader serves. */
  readonly types: readonly number[];
  read(channel: ChannelRow): Promise<number>;
}

const requestTimeoutMs = 30_000;

export const balanceQueryFailed = (zh: string, en: string) =>
  new AppError('balance_query_failed', { zh: `查询余额失败：${zh}`, en: `balance query failed: ${en}` });

/**
 * The address a balance call goes to: the channel's base URL replaces the vendor's scheme and host (so a
 * test or a mirror can stand in for the vendor), else the vendor's default; `null` default = must be set.
 */
export function balanceUrl(channel: ChannelRow, defaultBase: string | null, path: string): string {
  const base = (channel.base_url ?? '').trim().replace(/\/+$/, '') || defaultBase;
  if (!base) throw channelBaseUrlRequired();
  return base + path;
}

/** GETs a JSON answer; anything but HTTP 200 with a JSON body is an error naming what went wrong. */
export async function fetchBalanceJson(url: string, headers: Record<string, string>): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json', ...headers },
      signal: AbortSignal.timeout(requestTimeoutMs),
    });
  } catch (error) {
    const reason = error instanceof Error && error.name === 'TimeoutError' ? 'timeout' : (error as Error).message;
    throw balanceQueryFailed(`无法连接上游（${reason}）`, `cannot reach the upstream (${reason})`);
  }
  const text = await response.text();
  if (response.status !== 200)
    throw balanceQueryFailed(`status code: ${response.status}`, `status code: ${response.status}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw balanceQueryFailed('上游返回的不是 JSON', 'the upstream answer is not JSON');
  }
}

/** The value at a path of plain objects, or undefined. */
export function pick(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** A finite number from a number or a numeric string (several vendors send strings), else an error. */
export function toAmount(value: unknown, field: string): number {
  const amount = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof amount !== 'number' || !Number.isFinite(amount)) {
    throw balanceQueryFailed(`上游答复缺少数值字段 ${field}`, `the upstream answer has no numeric ${field}`);
  }
  return amount;
}

/** GETs `path` of the channel's base URL (else `defaultBase`) with the channel's key as a Bearer token. */
export const fetchBalanceWithBearer = (channel: ChannelRow, defaultBase: string | null, path: string) =>
  fetchBalanceJson(balanceUrl(channel, defaultBase, path), { authorization: `Bearer ${channel.key}` });
