import type { log, logCount, logStat, RunProgress, UsagePoint } from '@modelgate/wire';
import type { z } from 'zod';
import { api } from './client';

export type LogEntry = z.infer<typeof log>;

/** Filters of the log views; admins may also filter by username and channel. */
export interface LogFilters {
  type: number;
  token_name: string;
  model_name: string;
  start_timestamp: number;
  end_timestamp: number;
  username: string;
  channel: string;
  /** Leaves out channel tests' logs (type 5) unless the type filter asks for them (`exclude_type=5`). */
  hide_test: boolean;
}

/** The log type channel tests write. */
export const TEST_LOG_TYPE = 5;

export type { UsagePoint };

function query(filters: LogFilters, admin: boolean): Record<string, string | number> {
  const params: Record<string, string | number> = {
    type: filters.type,
    token_name: filters.token_name.trim(),
    model_name: filters.model_name.trim(),
    start_timestamp: filters.start_timestamp,
    end_timestamp: filters.end_timestamp,
  };
  if (filters.hide_test && filters.type !== TEST_LOG_TYPE) params.exclude_type = TEST_LOG_TYPE;
  if (admin) {
    params.username = filters.username.trim();
    params.channel = filters.channel.trim();
  }
  return params;
}

const base = (admin: boolean) => (admin ? '/api/log' : '/api/log/self');

/**
 * Where a page starts: its number (one-api's `p`), a keyset cursor (the last id of the page above it, or the
 * first id of the page below it), or the oldest page (the pager's jump to the end).
 */
export type LogPagePosition = { page: number } | { beforeId: number } | { afterId: number } | { last: true };

const positionParams = (position: LogPagePosition) =>
  'last' in position
    ? { last: '1' }
    : 'beforeId' in position
      ? { before_id: position.beforeId }
      : 'afterId' in position
        ? { after_id: position.afterId }
        : { p: position.page };

export const fetchLogPage = (filters: LogFilters, position: LogPagePosition, admin: boolean) =>
  api.get<LogEntry[]>(`${base(admin)}/`, { params: { ...query(filters, admin), ...positionParams(position) } });

export type LogCount = z.infer<typeof logCount>;

/** How many logs match (`exact` false: a lower bound, the count stopped at its cap). */
export const fetchLogCount = (filters: LogFilters, admin: boolean) =>
  api.get<LogCount>(`${base(admin)}/count`, { params: query(filters, admin) });

/** The address of the CSV export of the filtered logs, with the viewer's offset from UTC for the times. */
export function logExportUrl(filters: LogFilters, admin: boolean): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query(filters, admin))) params.set(key, String(value));
  params.set('utc_offset', String(-new Date().getTimezoneOffset() * 60));
  return `${base(admin)}/export?${params.toString()}`;
}

export const fetchLogStat = (filters: LogFilters, admin: boolean) =>
  api.get<z.infer<typeof logStat>>(`${base(admin)}/stat`, { params: query(filters, admin) });

export const fetchUsageSeries = (filters: LogFilters, admin: boolean, granularity: 'hour' | 'day') =>
  api.get<UsagePoint[]>(`${base(admin)}/series`, {
    params: { ...query(filters, admin), granularity, utc_offset: -new Date().getTimezoneOffset() * 60 },
  });

/** Deletes logs older than the timestamp; answers the count. */
export const deleteLogsBefore = (targetTimestamp: number) =>
  api.delete<number>('/api/log/', { params: { target_timestamp: targetTimestamp }, silent: true });

/** Progress of the running (or latest) log cleanup: `done` of `total` slices. */
export type LogCleanupProgress = RunProgress;

export const fetchLogCleanupProgress = () => api.get<LogCleanupProgress>('/api/log/cleanup/status', { silent: true });
