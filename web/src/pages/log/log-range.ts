import { TEST_LOG_TYPE, type LogFilters } from '../../api/log';

/** The default range starts here (local time). */
const DEFAULT_START = new Date(2024, 0, 1, 0, 0, 0);
const HOUR_SECONDS = 3600;
const DAY_SECONDS = 86_400;
/** The server refuses series with more buckets than this. */
const MAX_SERIES_BUCKETS = 800;
/** Ranges up to this long are charted by hour, longer ones by day. */
const HOURLY_UP_TO_SECONDS = 7 * DAY_SECONDS;

/** Where the log page remembers 'hide test logs' (this browser's choice, kept across visits). */
export const HIDE_TEST_KEY = 'log_hide_test';

/** The remembered 'hide test logs' choice; false when never set or unreadable. */
export function rememberedHideTest(): boolean {
  try {
    return localStorage.getItem(HIDE_TEST_KEY) === 'true';
  } catch {
    return false;
  }
}

export function rememberHideTest(hide: boolean): void {
  try {
    if (hide) localStorage.setItem(HIDE_TEST_KEY, 'true');
    else localStorage.removeItem(HIDE_TEST_KEY);
  } catch {
    // Storage refused (private mode, quota): the choice then lasts only for this page.
  }
}

/** Default filters: every type (test logs hidden when so remembered), from 2024-01-01 to one hour from now. */
export function defaultLogFilters(nowMs: number = Date.now(), hideTest = false): LogFilters {
  return {
    type: 0,
    token_name: '',
    model_name: '',
    start_timestamp: Math.floor(DEFAULT_START.getTime() / 1000),
    end_timestamp: Math.floor(nowMs / 1000) + HOUR_SECONDS,
    username: '',
    channel: '',
    hide_test: hideTest,
  };
}

/**
 * How many filters differ from the page's starting ones (username and channel count for admins only); hidden
 * test logs count whenever they are hidden, remembered or not, since the list then leaves rows out.
 */
export function countSetFilters(filters: LogFilters, defaults: LogFilters, admin: boolean): number {
  const set = [
    filters.type !== defaults.type,
    filters.hide_test && filters.type !== TEST_LOG_TYPE,
    filters.token_name.trim() !== '',
    filters.model_name.trim() !== '',
    filters.start_timestamp !== defaults.start_timestamp,
    filters.end_timestamp !== defaults.end_timestamp,
    admin && filters.username.trim() !== '',
    admin && filters.channel.trim() !== '',
  ];
  return set.filter(Boolean).length;
}

export interface ChartRange {
  start: number;
  end: number;
  granularity: 'hour' | 'day';
  /** True when the range was cut to the most recent buckets the server allows. */
  clipped: boolean;
}

/** The chart's range and granularity for the filter range: hourly up to 7 days, daily beyond, at most 800 buckets. */
export function chartRange(start: number, end: number): ChartRange {
  const granularity = end - start <= HOURLY_UP_TO_SECONDS ? 'hour' : 'day';
  const width = granularity === 'hour' ? HOUR_SECONDS : DAY_SECONDS;
  const earliest = end - (MAX_SERIES_BUCKETS - 1) * width;
  return { start: Math.max(start, earliest), end, granularity, clipped: start < earliest };
}
