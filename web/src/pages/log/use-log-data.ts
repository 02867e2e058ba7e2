import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import {
  fetchLogCount,
  fetchLogPage,
  fetchLogStat,
  fetchUsageSeries,
  type LogFilters,
  type LogPagePosition,
} from '../../api/log';
import { SERVER_PAGE_SIZE } from '../../hooks/use-paged-list';
import { queryKeys } from '../../lib/query-keys';
import { lastPageIndex, lastPageRows, neighbourCursors, pagePosition } from './log-pages';
import { chartRange } from './log-range';

/** The filters the log page applied; `run` counts the applies, so applying the same filters reads again. */
export interface AppliedLogFilters {
  filters: LogFilters;
  run: number;
}

/** Rows, the consumption sum and the usage series for the applied filters; each keeps its last answer while the next loads. */
export function useLogData({ filters, run }: AppliedLogFilters, admin: boolean) {
  const [position, setPosition] = useState({ run, page: 0 });
  const page = position.run === run ? position.page : 0;
  // Keyset cursors: `run/page` → a position next to a visited neighbour (the page above or below it). A page
  // reached by number (a jump) falls back to `p`; the last page of an exact total is read from the oldest end.
  const cursors = useRef(new Map<string, LogPagePosition>());
  const applied = { filters, admin, run };

  const count = useQuery({
    queryKey: queryKeys.read('log', 'count', applied),
    queryFn: () => fetchLogCount(filters, admin),
    placeholderData: keepPreviousData,
  });
  const exactTotal = count.isSuccess && count.data?.exact ? count.data.total : null;
  const lastPage = exactTotal === null ? null : lastPageIndex(exactTotal);

  const rows = useQuery({
    queryKey: queryKeys.read('log', 'page', { ...applied, page, last: page > 0 && page === lastPage }),
    queryFn: async () => {
      const position = pagePosition(page, lastPage, cursors.current.get(`${run}/${page}`));
      const answered = (await fetchLogPage(filters, position, admin)) ?? [];
      const loaded = 'last' in position && exactTotal !== null ? lastPageRows(answered, exactTotal) : answered;
      for (const [neighbour, cursor] of neighbourCursors(page, loaded))
        cursors.current.set(`${run}/${neighbour}`, cursor);
      return loaded;
    },
    placeholderData: keepPreviousData,
  });
  const stat = useQuery({
    queryKey: queryKeys.read('log', 'stat', applied),
    queryFn: () => fetchLogStat(filters, admin),
    placeholderData: keepPreviousData,
  });
  const range = chartRange(filters.start_timestamp, filters.end_timestamp);
  const series = useQuery({
    queryKey: queryKeys.read('log', 'series', applied),
    queryFn: async () => ({
      points:
        (await fetchUsageSeries(
          { ...filters, start_timestamp: range.start, end_timestamp: range.end },
          admin,
          range.granularity,
        )) ?? [],
      range,
    }),
    placeholderData: keepPreviousData,
  });

  const shown = rows.data ?? [];
  return {
    rows: shown,
    page,
    loading: rows.isFetching,
    /** The consumption sum, or null when unknown. */
    stat: stat.isSuccess ? (stat.data?.quota ?? 0) : null,
    /** The chart's points and range; an empty chart after a failure, null before the first answer. */
    series: series.data ?? (series.isError ? { points: [], range } : null),
    hasMore: lastPage === null ? shown.length === SERVER_PAGE_SIZE : page < lastPage,
    /** How many logs match, null until known; `exact` false: at least that many. */
    total: count.isSuccess && count.data ? count.data : null,
    goTo: (next: number) => setPosition({ run, page: next }),
  };
}
