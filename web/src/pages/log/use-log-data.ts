import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { fetchLogPage, fetchLogStat, fetchUsageSeries, type LogFilters } from '../../api/log';
import { SERVER_PAGE_SIZE } from '../../hooks/use-paged-list';
import { queryKeys } from '../../lib/query-keys';
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
  // Keyset cursors: `run/page` → the last id of the page above it, learnt as pages are visited. A page reached
  // by number (a jump) falls back to `p`.
  const cursors = useRef(new Map<string, number>());
  const applied = { filters, admin, run };

  const rows = useQuery({
    queryKey: queryKeys.read('log', 'page', { ...applied, page }),
    queryFn: async () => {
      const cursor = cursors.current.get(`${run}/${page}`);
      const loaded =
        (await fetchLogPage(filters, page > 0 && cursor !== undefined ? { beforeId: cursor } : { page }, admin)) ?? [];
      const last = loaded.at(-1);
      if (last && loaded.length === SERVER_PAGE_SIZE) cursors.current.set(`${run}/${page + 1}`, last.id);
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
    hasMore: shown.length === SERVER_PAGE_SIZE,
    goTo: (next: number) => setPosition({ run, page: next }),
  };
}
